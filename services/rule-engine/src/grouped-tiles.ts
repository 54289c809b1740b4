import { adoptGroupedRule, type CompiledTile, type GroupedAdoption, type RuleEvent, type TileState, type TileStateChange } from '@pulseboard/rules';
import type { ChangeSet } from './change-set.ts';
import type { StoredGroup, TileGroups } from './group-repository.ts';
import type { StoredState } from './repository.ts';
import type { TileRow } from './rules-cache.ts';

/**
 * The engine's steps for grouped tiles (rule `group_by`): each group's state
 * as the transaction sees it (memory overlaid with the change set), written
 * into the change set with the tile's own state, which is always written so
 * its wake time (the earliest of its groups') is kept.
 */

/** A tile's groups as the transaction sees them. */
export function groupsIn(set: ChangeSet, committed: ReadonlyMap<string, StoredGroup> | undefined, tileId: number): Map<string, StoredGroup> {
  const groups = new Map(committed ?? []);
  for (const [key, write] of set.groups.get(tileId) ?? []) {
    if (write.group === null) groups.delete(key);
    else groups.set(key, write.group);
  }
  return groups;
}

function groupIn(set: ChangeSet, committed: ReadonlyMap<string, StoredGroup> | undefined, tileId: number, key: string): StoredGroup | undefined {
  const written = set.group(tileId, key);
  return written === null ? undefined : (written ?? committed?.get(key));
}

/** Records a rule change of a tile that has or gets groups; returns the tile's state as stored. */
export function recordAdoption(
  set: ChangeSet,
  row: TileRow,
  projectKey: string,
  adopted: GroupedAdoption,
  groups: ReadonlyMap<string, StoredGroup>,
  before: StoredState | undefined,
): StoredState {
  for (const group of adopted.groups) set.recordGroup(row, projectKey, group, groups.has(group.key));
  set.record(row, projectKey, { state: { ...adopted.tile.state }, changes: adopted.tile.changes, wakeAt: null }, before);
  return { ...adopted.tile.state, fingerprint: row.fingerprint };
}

/** Whether a tile needs the grouped path: its rule groups, or it still has groups of an earlier rule. */
export const isGrouped = (tile: CompiledTile, committed: ReadonlyMap<string, StoredGroup> | undefined) => tile.grouping !== null || (committed?.size ?? 0) > 0;

/**
 * A grouped tile's own state in this transaction, moved to its current rule
 * first when that changed while no instance held it in memory.
 */
function tileStateOf(
  set: ChangeSet,
  states: Map<number, StoredState>,
  committed: ReadonlyMap<string, StoredGroup> | undefined,
  tile: CompiledTile,
  row: TileRow,
  projectKey: string,
  now: number,
): { state: TileState; before: StoredState | undefined } {
  const before = set.state(tile.id) ?? states.get(tile.id);
  if (before === undefined) return { state: tile.grouping?.initialState() ?? tile.evaluator.initialState(), before };
  if (before.fingerprint === row.fingerprint) return { state: before, before };
  const groups = groupsIn(set, committed, tile.id);
  const stored = recordAdoption(set, row, projectKey, adoptGroupedRule(undefined, tile, before, groups, now), groups, before);
  return { state: stored, before: stored };
}

export interface GroupedContext {
  set: ChangeSet;
  states: Map<number, StoredState>;
  groups: TileGroups | undefined;
  projectKey: string;
  maxGroups: number;
}

/** An event applied to its group; returns whether the event changed the tile or one of its groups. */
export function applyGroupedEvent(ctx: GroupedContext, tile: CompiledTile, row: TileRow, event: RuleEvent, now: number): boolean {
  const { set, projectKey } = ctx;
  const committed = ctx.groups?.get(tile.id);
  const { state, before } = tileStateOf(set, ctx.states, committed, tile, row, projectKey, now);
  const grouping = tile.grouping;
  if (grouping === null) {
    // Groups of an earlier rule were dropped above; the tile now evaluates on its own.
    const step = tile.evaluator.applyEvent(state, event, now);
    return set.record(row, projectKey, step, before);
  }
  const key = grouping.keyOf(event);
  const record = key === null ? undefined : groupIn(set, committed, tile.id, key);
  const step = grouping.applyEvent(state, key, record, set.groupCount(tile.id, committed?.size ?? 0), ctx.maxGroups, event, now);
  let byEvent = step.group !== null && set.recordGroup(row, projectKey, step.group, record !== undefined);
  if (set.record(row, projectKey, { ...step.tile, state: { ...step.tile.state } }, before)) byEvent = true;
  return byEvent;
}

/** Every group of a grouped tile whose wake time has come, advanced to `now`. */
export function advanceGroupedTile(ctx: GroupedContext, tile: CompiledTile, row: TileRow, now: number): void {
  const { set, projectKey } = ctx;
  const committed = ctx.groups?.get(tile.id);
  const { state, before } = tileStateOf(set, ctx.states, committed, tile, row, projectKey, now);
  const grouping = tile.grouping;
  if (grouping === null) {
    set.record(row, projectKey, tile.evaluator.advance(state, now), before);
    return;
  }
  let current = state;
  const changes: TileStateChange[] = [];
  for (const [key, group] of groupsIn(set, committed, tile.id)) {
    if (group.wakeAt === null || group.wakeAt > now) continue;
    const step = grouping.advance(current, key, group, now);
    current = step.tile.state;
    changes.push(...step.tile.changes);
    if (step.group !== null) set.recordGroup(row, projectKey, step.group, true);
  }
  set.record(row, projectKey, { state: { ...current }, changes, wakeAt: null }, before);
}
