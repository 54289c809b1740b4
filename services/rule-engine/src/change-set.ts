import type { PoolClient } from 'pg';
import { TOPICS } from '@pulseboard/contracts';
import { writeOutbox } from '@pulseboard/db';
import type { EvaluationStep, GroupStep } from '@pulseboard/rules';
import { deleteTileGroups, writeGroups, type GroupWrite, type StoredGroup } from './group-repository.ts';
import { deleteStates, insertHistory, writeStates, type CommittedHistoryRow, type HistoryWrite, type StateWrite, type StoredState } from './repository.ts';

export interface EngineTopics {
  ruleOutcomes: string;
  /** Where an applied replay's tile_replaced message goes (replay.ts). */
  tileReplacements: string;
  outboxTable: string;
}

/**
 * What one transaction of the engine writes: new tile states, their changes
 * (history rows and tile-change messages) and rule outcomes, gathered while
 * evaluating and written at once. Later evaluations in the same transaction
 * read the states gathered here (`state()`), never memory that a rollback
 * would leave wrong.
 */
export class ChangeSet {
  /**
   * `revisionOf`: the project revision of the rules in use (the engine's cache), stamped on each change.
   * `committedGroups`: a grouped tile's groups as memory holds them (before this set), for its wake time.
   */
  constructor(
    private readonly revisionOf: (projectKey: string) => number = () => 0,
    private readonly committedGroups: (projectKey: string, tileId: number) => ReadonlyMap<string, StoredGroup> | undefined = () => undefined,
  ) {}

  readonly states = new Map<number, StateWrite>();
  /** Groups of grouped tiles written: tile id → group key → write (group null: gone). */
  readonly groups = new Map<number, Map<string, GroupWrite>>();
  /** Per grouped tile, groups this set added less those it removed. */
  private readonly groupDelta = new Map<number, number>();
  readonly deleted = new Set<number>();
  private readonly history: HistoryWrite[] = [];
  /** The history rows as written (with their positions): the relay sends them from memory once the transaction committed. */
  written: CommittedHistoryRow[] = [];
  /** W3C trace context of the batch that made these changes: stored with them, relayed with them. */
  traceparent: string | undefined;
  private readonly outcomes: { projectKey: string; eventId: number; tilesAffected: number }[] = [];

  state(tileId: number): StoredState | undefined {
    return this.states.get(tileId)?.state;
  }

  /** Records an evaluation step; returns whether the event (not time) changed the tile. */
  record(tile: { id: number; name: string; fingerprint: string }, projectKey: string, step: EvaluationStep, previous: StoredState | undefined): boolean {
    const changedRule = previous !== undefined && previous.fingerprint !== tile.fingerprint;
    if (step.state !== previous || changedRule || previous === undefined) {
      this.states.set(tile.id, { tileId: tile.id, projectKey, state: { ...step.state, fingerprint: tile.fingerprint }, wakeAt: step.wakeAt });
    }
    let byEvent = false;
    for (const change of step.changes) {
      this.history.push({ tileId: tile.id, projectKey, tileName: tile.name, change, rulesRevision: this.revisionOf(projectKey) });
      if (change.cause === 'event') byEvent = true;
    }
    return byEvent;
  }

  /** A group as this transaction sees it: undefined when this set did not write it, null when it removed it. */
  group(tileId: number, key: string): StoredGroup | null | undefined {
    const write = this.groups.get(tileId)?.get(key);
    return write === undefined ? undefined : write.group;
  }

  /** How many groups a grouped tile holds in this transaction, given how many memory holds. */
  groupCount(tileId: number, committed: number): number {
    return committed + (this.groupDelta.get(tileId) ?? 0);
  }

  /** Records a group's step (`existed`: whether the group existed before it); its changes go to the history with their group. */
  recordGroup(tile: { id: number; name: string }, projectKey: string, step: GroupStep, existed: boolean): boolean {
    const group = step.record === null ? null : { ...step.record, wakeAt: step.wakeAt };
    let writes = this.groups.get(tile.id);
    if (writes === undefined) this.groups.set(tile.id, (writes = new Map()));
    writes.set(step.key, { tileId: tile.id, projectKey, key: step.key, group });
    const delta = (group === null ? 0 : 1) - (existed ? 1 : 0);
    if (delta !== 0) this.groupDelta.set(tile.id, (this.groupDelta.get(tile.id) ?? 0) + delta);
    let byEvent = false;
    for (const change of step.changes) {
      this.history.push({ tileId: tile.id, projectKey, tileName: tile.name, change, rulesRevision: this.revisionOf(projectKey) });
      if (change.cause === 'event') byEvent = true;
    }
    return byEvent;
  }

  /** A grouped tile's wake time: the earliest of its groups' (memory's, overlaid with this set's). */
  private groupedWake(projectKey: string, tileId: number): number | null {
    const writes = this.groups.get(tileId);
    let earliest: number | null = null;
    const take = (at: number | null) => {
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    };
    for (const [key, group] of this.committedGroups(projectKey, tileId) ?? []) if (!writes?.has(key)) take(group.wakeAt);
    for (const write of writes?.values() ?? []) take(write.group?.wakeAt ?? null);
    return earliest;
  }

  delete(tileId: number): void {
    this.groups.delete(tileId);
    this.deleted.add(tileId);
    this.states.delete(tileId);
  }

  outcome(projectKey: string, eventId: number, tilesAffected: number): void {
    this.outcomes.push({ projectKey, eventId, tilesAffected });
  }

  get changeCount(): number {
    return this.history.length;
  }

  get outcomeCount(): number {
    return this.outcomes.length;
  }

  /** Whether the transaction wrote anything the relay sends: tile changes or rule outcomes. */
  get relays(): boolean {
    return this.history.length > 0 || this.outcomes.length > 0;
  }

  /**
   * Writes everything. The history rows are the tile-change messages (relayed
   * from the history by the partition's owner); rule outcomes go through the
   * outbox of the partition whose state this is.
   */
  async write(tx: PoolClient, partition: number, relayStream: number, topics: EngineTopics): Promise<void> {
    await ChangeSet.writeAll(tx, [{ set: this, partition, relayStream }], topics);
  }

  /** The change sets of several partitions (a fetch's shared transaction), each statement once for all of them. */
  static async writeAll(tx: PoolClient, sets: readonly { set: ChangeSet; partition: number; relayStream: number }[], topics: EngineTopics): Promise<void> {
    const deleted = sets.flatMap(({ set }) => [...set.deleted]);
    await deleteStates(tx, deleted);
    await deleteTileGroups(tx, deleted);
    for (const { set } of sets) {
      for (const tileId of set.groups.keys()) {
        const write = set.states.get(tileId);
        if (write !== undefined) write.wakeAt = set.groupedWake(write.projectKey, tileId);
      }
    }
    await writeGroups(
      tx,
      sets.flatMap(({ set }) => [...set.groups.values()].flatMap((writes) => [...writes.values()])),
    );
    await writeStates(
      tx,
      sets.flatMap(({ set }) => [...set.states.values()]),
    );
    const rows = sets.map(({ set, relayStream }) => set.history.map((h) => ({ ...h, relayStream, traceparent: set.traceparent ?? null })));
    const positions = await insertHistory(tx, rows.flat());
    let next = 0;
    sets.forEach(({ set }, i) => (set.written = rows[i]!.map((row) => ({ ...row, position: positions[next++]! }))));
    const outcomes = sets.flatMap(({ set, partition }) =>
      set.outcomes.map((o) => ({
        partition,
        message: {
          topic: topics.ruleOutcomes,
          ...TOPICS.ruleOutcomes.encode({ project_key: o.projectKey, event_id: o.eventId, tiles_affected: o.tilesAffected }),
        },
      })),
    );
    await writeOutbox(
      tx,
      topics.outboxTable,
      outcomes.map((o) => o.partition),
      outcomes.map((o) => o.message),
    );
  }
}
