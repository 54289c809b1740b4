import {
  DEFAULT_GROUP_RETIRE_AFTER,
  durationMs,
  MAX_GROUP_KEY_LENGTH,
  MISSING_GROUP_KEY,
  type TileRule,
  type TileStatus,
  type TileValue,
} from '@pulseboard/contracts';
import { compileAttributePath } from './attribute-path.ts';
import type { TileEvaluator } from './evaluator.ts';
import type { RuleEvent } from './event.ts';
import { NO_RUNS, type EvaluationStep, type TileState, type TileStateChange } from './tile-state.ts';

/** Statuses from the worst to the best: a grouped tile shows the first one any of its groups has. */
export const WORST_FIRST: readonly TileStatus[] = ['critical', 'warning', 'stale', 'unknown', 'ok'];
const RANK = new Map(WORST_FIRST.map((status, i) => [status, i]));
/** Sorts statuses worst first. */
export const worstFirst = (a: TileStatus, b: TileStatus) => RANK.get(a)! - RANK.get(b)!;

export type GroupCounts = Record<TileStatus, number>;

/** What a grouped tile's own state keeps beside the usual evaluation fields (`evaluation.groups`). */
export interface GroupTally {
  /** How many groups are in each status now. */
  counts: GroupCounts;
  /** Events refused because they would have opened a group past the limit (or their key was too long). */
  refused: number;
}

/** One group of a tile: its state (as a tile's) and the engine time its last event came. */
export interface GroupRecord {
  state: TileState;
  seen: number;
}

/** A group's step: its new record (null: retired), its changes (each with `group`), its next wake. */
export interface GroupStep {
  key: string;
  record: GroupRecord | null;
  changes: TileStateChange[];
  wakeAt: number | null;
}

/** What an event or time did to a grouped tile: the tile's own step (its `wakeAt` left to the caller) and its group's. */
export interface GroupedStep {
  tile: EvaluationStep;
  group: GroupStep | null;
}

const noCounts = (): GroupCounts => ({ critical: 0, warning: 0, stale: 0, unknown: 0, ok: 0 });

/** The tally of a grouped tile's state (zero for a state made before it was grouped). */
export function tallyOf(state: TileState): GroupTally {
  return state.evaluation.groups ?? { counts: noCounts(), refused: 0 };
}

/** The worst status of any group and how many groups have it; unknown and null with no group. */
function shownBy(counts: GroupCounts): { status: TileStatus; value: TileValue } {
  for (const status of WORST_FIRST) if (counts[status] > 0) return { status, value: counts[status] };
  return { status: 'unknown', value: null };
}

/** Reads an event's group key: the envelope field or attribute path; null when the value is too long to be a key. */
function compileGroupKey(groupBy: string): (event: RuleEvent) => string | null {
  const read: (event: RuleEvent) => unknown =
    groupBy === 'source' || groupBy === 'channel' || groupBy === 'name'
      ? (event) => event[groupBy]
      : (
          (reader) => (event: RuleEvent) =>
            reader(event.attributes)
        )(compileAttributePath(groupBy));
  return (event) => {
    const value = read(event);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return MISSING_GROUP_KEY;
    const key = String(value);
    if (key === '') return MISSING_GROUP_KEY;
    return key.length > MAX_GROUP_KEY_LENGTH ? null : key;
  };
}

/**
 * A grouped tile's rule: each group is evaluated as a tile of its own with the
 * tile's evaluator, and the tile's own state follows its groups (status: the
 * worst group's; value: how many groups have it). Pure, like the evaluator:
 * the caller keeps the records and passes time in.
 */
export interface Grouping {
  readonly retireAfterMs: number;
  /** The event's group; null when its value cannot be a key (longer than `MAX_GROUP_KEY_LENGTH`). */
  keyOf(event: RuleEvent): string | null;
  /** A grouped tile's state before any event. */
  initialState(): TileState;
  /**
   * The event applied to its group (`record`, undefined for a group not seen yet).
   * A new group past `maxGroups` (the tile holds `groupCount`) is refused and counted.
   */
  applyEvent(
    tile: TileState,
    key: string | null,
    record: GroupRecord | undefined,
    groupCount: number,
    maxGroups: number,
    event: RuleEvent,
    now: number,
  ): GroupedStep;
  /** A group's time-driven changes due by `now`, its retirement included. */
  advance(tile: TileState, key: string, record: GroupRecord, now: number): GroupedStep;
  /** When a group needs `advance` next (its evaluator's wake, or its retirement). */
  wakeAt(record: GroupRecord): number | null;
  /** A group moved to a changed rule that keeps the data (damping or staleness changed): `cause: rule` changes. */
  adopt(tile: TileState, key: string, record: GroupRecord, now: number): GroupedStep;
}

export function compileGrouping(rule: TileRule & { group_by: string }, evaluator: TileEvaluator): Grouping {
  const keyOf = compileGroupKey(rule.group_by);
  const retireAfterMs = durationMs(rule.group_retire_after ?? DEFAULT_GROUP_RETIRE_AFTER);

  const initialState = (): TileState => {
    const fresh = evaluator.initialState();
    return { ...fresh, evaluation: { at: null, level: null, latest: null, runs: NO_RUNS, groups: { counts: noCounts(), refused: 0 } } };
  };

  /** The tile's state once a group went from `before` to `after` (undefined: absent), with a change when what it shows moved. */
  function follow(
    tile: TileState,
    before: TileStatus | undefined,
    after: TileStatus | undefined,
    refused: number,
    cause: TileStateChange['cause'],
    eventId: number | null,
    t: number,
  ): EvaluationStep {
    const tally = tallyOf(tile);
    const counts = { ...tally.counts };
    if (before !== undefined) counts[before]--;
    if (after !== undefined) counts[after]++;
    const evaluation = { ...tile.evaluation, at: Math.max(t, tile.evaluation.at ?? t), groups: { counts, refused: tally.refused + refused } };
    const shown = shownBy(counts);
    if (shown.status === tile.status && shown.value === tile.value) return { state: { ...tile, evaluation }, changes: [], wakeAt: null };
    const version = tile.version + 1;
    const change: TileStateChange = {
      cause,
      status: shown.status,
      previous_status: tile.status,
      value: shown.value,
      previous_value: tile.value,
      version,
      event_id: eventId,
      changed_at: t,
    };
    return { state: { ...shown, version, last_event_id: eventId, changed_at: t, evaluation }, changes: [change], wakeAt: null };
  }

  const wakeAt = (record: GroupRecord): number | null => {
    const evaluatorWake = evaluator.wakeAt(record.state);
    const retireAt = record.seen + retireAfterMs;
    return evaluatorWake === null ? retireAt : Math.min(evaluatorWake, retireAt);
  };

  /** A group's step from `previous` (absent for a new group) to `step`, and the tile following it. */
  function stepped(
    tile: TileState,
    key: string,
    previous: TileState | undefined,
    step: EvaluationStep,
    seen: number,
    eventId: number | null,
    t: number,
  ): GroupedStep {
    const record = { state: step.state, seen };
    const changes = step.changes.map((change) => ({ ...change, group: key }));
    const last = changes.at(-1);
    const followed =
      previous !== undefined && previous.status === step.state.status
        ? { state: tile, changes: [], wakeAt: null }
        : follow(tile, previous?.status, step.state.status, 0, last?.cause ?? 'event', last?.event_id ?? eventId, last?.changed_at ?? t);
    return { tile: followed, group: { key, record, changes, wakeAt: wakeAt(record) } };
  }

  function applyEvent(
    tile: TileState,
    key: string | null,
    record: GroupRecord | undefined,
    groupCount: number,
    maxGroups: number,
    event: RuleEvent,
    now: number,
  ): GroupedStep {
    if (key === null || (record === undefined && groupCount >= maxGroups)) {
      return { tile: follow(tile, undefined, undefined, 1, 'event', event.id, now), group: null };
    }
    const before = record?.state ?? evaluator.initialState();
    const step = evaluator.applyEvent(before, event, now);
    return stepped(tile, key, record?.state, step, Math.max(now, record?.seen ?? now), event.id, now);
  }

  function advance(tile: TileState, key: string, record: GroupRecord, now: number): GroupedStep {
    const retireAt = record.seen + retireAfterMs;
    const step = evaluator.advance(record.state, Math.min(now, retireAt));
    if (retireAt > now) return stepped(tile, key, record.state, step, record.seen, null, now);
    // Retired: the group leaves without a change of its own; the tile's counts (and maybe its status) move.
    const changes = step.changes.map((change) => ({ ...change, group: key }));
    const followed = follow(tile, record.state.status, undefined, 0, 'time', null, retireAt);
    return { tile: followed, group: { key, record: null, changes, wakeAt: null } };
  }

  function adopt(tile: TileState, key: string, record: GroupRecord, now: number): GroupedStep {
    return stepped(tile, key, record.state, evaluator.adopt(record.state, now, true), record.seen, null, now);
  }

  return { retireAfterMs, keyOf, initialState, applyEvent, advance, wakeAt, adopt };
}
