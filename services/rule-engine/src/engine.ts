import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import { firstTraceparent } from '@pulseboard/config';
import { OUTCOME_WANTED_HEADER, PROJECT_REVISION_HEADER, type IngestedEvent } from '@pulseboard/contracts';
import {
  OK,
  type ConsumedMessage,
  type PartitionClaim,
  type SharedBatch,
  type StateBatchResult,
  type StateConsuming,
  type StateContext,
} from '@pulseboard/kafka-kit';
import type { TileRule } from '@pulseboard/contracts';
import { adoptGroupedRule, adoptRule, RulePreview, toRuleEvent, type CompiledTile, type TileState, type TileStateChange } from '@pulseboard/rules';
import { ChangeSet, type EngineTopics } from './change-set.ts';
import { loadGroups, type TileGroups } from './group-repository.ts';
import { advanceGroupedTile, applyGroupedEvent, groupsIn, isGrouped, recordAdoption, type GroupedContext } from './grouped-tiles.ts';
import { claimHistoryStream, insertHistory, loadStates, wakingTiles, type CommittedHistoryRow, type StoredState } from './repository.ts';
import {
  announceReplaced,
  deleteHistorySince,
  finishReplay,
  published,
  renumbered,
  replayStored,
  takeReplay,
  waitForStore,
  type ReplayRequest,
  type ReplayResult,
} from './replay.ts';
import type { ProjectTiles, RuleChange, RulesCache } from './rules-cache.ts';
import type { EngineMetrics } from './metrics.ts';
import type { ProgressListener } from './freshness.ts';

/** How soon a failed timer tick is tried again. */
const TIMER_RETRY_MS = 1000;

/** What memory holds for one claimed partition: its projects' states (loaded on first use) and timers. */
class PartitionMemory {
  /** The history relay stream of this partition (written into each history row). */
  constructor(readonly stream: number) {}
  readonly projects = new Map<string, Map<number, StoredState>>();
  /** Grouped tiles' groups, by project (loaded with its states). */
  readonly groups = new Map<string, TileGroups>();
  /** tile id → when it needs `advance` next (engine time) and its project. */
  readonly wakes = new Map<number, { projectKey: string; at: number }>();
}

export interface EngineDeps {
  logger: Logger;
  metrics: EngineMetrics;
  rules: RulesCache;
  topics: EngineTopics;
  /** Engine time, epoch ms: injectable for tests. */
  clock: () => number;
  /** The engine's consumer group: with the events topic and partition, it names the history relay stream. */
  groupId: string;
  /** The events topic and the store's consumer group: a replay waits until the store has stored what the engine applied. */
  eventsTopic: string;
  storeGroupId: string;
  /** The events partition a project's events (and so its state) live on. */
  partitionOf: (projectKey: string) => number;
  /**
   * After a commit that wrote what the relay sends: `history`, the rows it appended (with positions),
   * in order; `claimed`, a partition was just claimed (what a former owner left is read, not taken from memory).
   */
  onCommitted: (wrote: { history: readonly CommittedHistoryRow[]; outbox: boolean; claimed?: boolean }) => void;
  /**
   * Whether an event's project revision (the accepting gateway's, header
   * pb-project-revision) makes the engine re-read the project's rules first.
   * Off only to show what it buys (the rules then move by the poll alone).
   */
  followRevisions: boolean;
  /**
   * Time-driven changes (window entries leaving, staleness, damping) due within this long of each
   * other are applied together: timer ticks are at least this far apart. Default 20.
   */
  timeGatherMs?: number;
  /** Told each claim, release and committed batch: how current each partition is (freshness.ts). */
  progress?: ProgressListener;
}

/** The project revision the accepting gateway knew, from the event's header; 0 when absent. */
function stampedRevision(message: ConsumedMessage<IngestedEvent>): number {
  const header = message.raw.headers?.[PROJECT_REVISION_HEADER];
  const text = Array.isArray(header) ? header[0] : header;
  const revision = text === undefined ? 0 : Number(text.toString());
  return Number.isSafeInteger(revision) ? revision : 0;
}

/** A batch evaluated, not yet written. */
interface Evaluated {
  messages: ConsumedMessage<IngestedEvent>[];
  partition: number;
  memory: PartitionMemory;
  set: ChangeSet;
  started: number;
}

/**
 * Evaluates events against their project's tiles and owns the tile states of
 * the partitions this instance has claimed. Every write (an event batch, a
 * timer, a rule change) runs in a transaction that holds the partition's
 * claim, and memory changes only after that transaction committed.
 */
export class RuleEngine {
  private readonly memory = new Map<number, PartitionMemory>();
  private consumer: StateConsuming | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: EngineDeps) {}

  attach(consumer: StateConsuming): void {
    this.consumer = consumer;
  }

  /** Inside the claiming transaction: fresh memory, timers re-armed from the stored wake times. */
  readonly onClaim = async (tx: PoolClient, claim: PartitionClaim): Promise<void> => {
    const memory = new PartitionMemory(await claimHistoryStream(tx, { groupId: this.deps.groupId, topic: claim.topic, partition: claim.partition }));
    for (const row of await wakingTiles(tx)) {
      if (this.deps.partitionOf(row.project_key) === claim.partition) memory.wakes.set(row.tile_id, { projectKey: row.project_key, at: row.wake_at.getTime() });
    }
    this.memory.set(claim.partition, memory);
    this.deps.progress?.claimed(claim.partition, claim);
    this.deps.onCommitted({ history: [], outbox: true, claimed: true }); // what a former owner left leaves now
    this.schedule();
  };

  readonly onRelease = (partition: number): void => {
    this.memory.delete(partition);
    this.deps.progress?.released(partition);
  };

  private async projectStates(tx: PoolClient, memory: PartitionMemory, projectKey: string): Promise<Map<number, StoredState>> {
    let states = memory.projects.get(projectKey);
    if (states === undefined) {
      states = await loadStates(tx, projectKey);
      memory.groups.set(projectKey, await loadGroups(tx, projectKey));
      memory.projects.set(projectKey, states);
    }
    return states;
  }

  /** A change set whose grouped tiles' wake times see the partition's groups in memory. */
  private newSet(memory: PartitionMemory): ChangeSet {
    return new ChangeSet(this.rulesRevision, (projectKey, tileId) => memory.groups.get(projectKey)?.get(tileId));
  }

  private groupedContext(memory: PartitionMemory, set: ChangeSet, states: Map<number, StoredState>, project: ProjectTiles): GroupedContext {
    return { set, states, groups: memory.groups.get(project.projectKey), projectKey: project.projectKey, maxGroups: project.maxGroupsPerTile };
  }

  /** A tile's state as this transaction sees it, adopted to the tile's current rule if that changed while it was away. */
  private stateOf(
    set: ChangeSet,
    states: Map<number, StoredState>,
    tile: CompiledTile,
    fingerprint: string,
    now: number,
  ): { state: TileState; before: StoredState | undefined; adopted?: ReturnType<typeof adoptRule> } {
    const before = set.state(tile.id) ?? states.get(tile.id);
    if (before === undefined) return { state: tile.evaluator.initialState(), before };
    if (before.fingerprint === fingerprint) return { state: before, before };
    // The rule changed while no instance held this state in memory: the old rule is gone, start over.
    const adopted = adoptRule(undefined, tile, before, now);
    return { state: adopted.state, before, adopted };
  }

  /** The revision of a project's cached rules: stamped on its tile changes (the notification service re-reads a project older than that). */
  private readonly rulesRevision = (projectKey: string): number => this.deps.rules.cached(projectKey)?.revision ?? 0;

  /**
   * One partition's batch, in the consumer's transaction. The changes it makes carry the batch's
   * `traceparent` on: its span's (the consumer's tracing middleware), else the first event's own.
   */
  readonly handle = (messages: ConsumedMessage<IngestedEvent>[], { tx, claim, traceparent }: StateContext): Promise<StateBatchResult> =>
    this.evaluate(tx, messages, claim, traceparent ?? firstTraceparent(messages));

  /**
   * The batches of several partitions in a fetch's shared transaction: each evaluated as on its own
   * (under its own span), their writes made together (one statement each for all of them).
   */
  readonly handleAll = async (tx: PoolClient, batches: SharedBatch<IngestedEvent>[]): Promise<StateBatchResult[]> => {
    const evaluated: Evaluated[] = [];
    for (const { messages, claim, traceparent } of batches)
      evaluated.push(await this.evaluateOnly(tx, messages, claim, traceparent ?? firstTraceparent(messages)));
    await ChangeSet.writeAll(
      tx,
      evaluated.map((e) => ({ set: e.set, partition: e.partition, relayStream: e.memory.stream })),
      this.deps.topics,
    );
    return evaluated.map((e) => this.result(e));
  };

  private async evaluate(
    tx: PoolClient,
    messages: ConsumedMessage<IngestedEvent>[],
    claim: PartitionClaim,
    traceparent: string | undefined,
  ): Promise<StateBatchResult> {
    const evaluated = await this.evaluateOnly(tx, messages, claim, traceparent);
    await evaluated.set.write(tx, claim.partition, evaluated.memory.stream, this.deps.topics);
    return this.result(evaluated);
  }

  /** What a batch's transaction tells the consumer: all ok; memory learns the changes once it committed. */
  private result({ messages, partition, memory, set, started }: Evaluated): StateBatchResult {
    return {
      outcomes: messages.map(() => OK),
      committed: () => {
        this.deps.metrics.batchApplied((performance.now() - started) / 1000);
        const last = messages[messages.length - 1];
        if (last !== undefined) this.deps.progress?.applied(partition, Date.parse(last.value.received_at));
        this.commit(memory, set);
      },
    };
  }

  /** Evaluates a batch into a change set (reading states in `tx`), writing nothing yet. */
  private async evaluateOnly(
    tx: PoolClient,
    messages: ConsumedMessage<IngestedEvent>[],
    claim: PartitionClaim,
    traceparent: string | undefined,
  ): Promise<Evaluated> {
    const memory = this.memory.get(claim.partition);
    if (memory === undefined) throw Object.assign(new Error('partition memory missing'), { retryable: true });
    const now = this.deps.clock();
    const started = performance.now();
    // Wall-clock time, not the engine clock: how long the oldest event took to get here.
    const receivedMs = Date.parse(messages[0]?.value.received_at ?? '');
    if (!Number.isNaN(receivedMs)) this.deps.metrics.batchWaited(Math.max(0, Date.now() - receivedMs) / 1000);
    const set = this.newSet(memory);
    set.traceparent = traceparent;
    const loaded = new Map<string, Map<number, StoredState>>();
    for (const message of messages) {
      const event = message.value;
      let states = loaded.get(event.project_key);
      if (states === undefined) {
        states = await this.projectStates(tx, memory, event.project_key);
        loaded.set(event.project_key, states);
      }
      const project = await this.rulesFor(message, set, states, now, memory);
      const ruleEvent = toRuleEvent(event);
      let affected = 0;
      const tileGroups = memory.groups.get(event.project_key);
      for (const tile of project.rules.matching(ruleEvent)) {
        const row = project.rows.get(tile.id)!;
        if (isGrouped(tile, tileGroups?.get(tile.id))) {
          // Counted once per tile, however many of its groups the event changed.
          if (applyGroupedEvent(this.groupedContext(memory, set, states, project), tile, row, ruleEvent, now)) affected++;
          continue;
        }
        const { state, before, adopted } = this.stateOf(set, states, tile, row.fingerprint, now);
        if (adopted !== undefined) set.record(row, event.project_key, adopted, before);
        const step = tile.evaluator.applyEvent(state, ruleEvent, now);
        if (set.record(row, event.project_key, step, adopted === undefined ? before : { ...adopted.state, fingerprint: row.fingerprint })) affected++;
      }
      this.deps.metrics.evaluated(affected);
      if (message.raw.headers?.[OUTCOME_WANTED_HEADER] !== undefined) set.outcome(event.project_key, event.id, affected);
    }
    return { messages, partition: claim.partition, memory, set, started };
  }

  /**
   * The rules an event is evaluated with: at least as new as the project
   * revision its gateway knew (every tile write bumps it before answering), so
   * an event accepted after a tile write sees that write. A re-read moves the
   * project's states to the new rules inside this batch's transaction first
   * (the same step a control-topic message or the poll would take), so no
   * later adoption overwrites what this event does.
   */
  private async rulesFor(
    message: ConsumedMessage<IngestedEvent>,
    set: ChangeSet,
    states: Map<number, StoredState>,
    now: number,
    memory: PartitionMemory,
  ): Promise<ProjectTiles> {
    const projectKey = message.value.project_key;
    const wanted = this.deps.followRevisions ? stampedRevision(message) : 0;
    const cached = this.deps.rules.cached(projectKey);
    if (cached !== undefined && cached.revision >= wanted) return cached;
    if (cached === undefined && wanted === 0) return this.deps.rules.get(projectKey);
    const { tiles, change } = await this.deps.rules.atLeast(projectKey, wanted);
    if (change !== undefined) {
      this.deps.metrics.rulesReloaded('event');
      this.adoptAll(change.previous, change.next, states, set, now, memory.groups.get(projectKey));
    }
    return tiles;
  }

  /** Publishes a committed change set to memory and timers. */
  private commit(memory: PartitionMemory, set: ChangeSet): void {
    for (const tileId of set.deleted) {
      memory.wakes.delete(tileId);
      for (const states of memory.projects.values()) states.delete(tileId);
      for (const groups of memory.groups.values()) groups.delete(tileId);
    }
    for (const [tileId, writes] of set.groups) {
      for (const write of writes.values()) {
        const projectGroups = memory.groups.get(write.projectKey);
        if (projectGroups === undefined) continue;
        let groups = projectGroups.get(tileId);
        if (groups === undefined) projectGroups.set(tileId, (groups = new Map()));
        if (write.group === null) groups.delete(write.key);
        else groups.set(write.key, write.group);
      }
    }
    for (const write of set.states.values()) {
      const states = memory.projects.get(write.projectKey);
      states?.set(write.tileId, write.state);
      if (write.wakeAt === null) memory.wakes.delete(write.tileId);
      else memory.wakes.set(write.tileId, { projectKey: write.projectKey, at: write.wakeAt });
    }
    this.deps.metrics.changes(set.changeCount);
    // A webhook's outcome leaves at once even when its event changed no tile: without the
    // wake-up it waited for the relay's sweep (about 1 s) instead of a few ms.
    if (set.relays) this.deps.onCommitted({ history: set.written, outbox: set.outcomeCount > 0 });
    this.schedule();
  }

  /** Arms one timer for the earliest wake of every claimed partition. */
  private schedule(): void {
    if (this.stopped) return;
    let earliest = Infinity;
    for (const memory of this.memory.values()) for (const { at } of memory.wakes.values()) if (at < earliest) earliest = at;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (earliest === Infinity) return;
    // At least timeGatherMs apart, so a window full of near-simultaneous leavings is one transaction, not hundreds.
    const delay = Math.min(2 ** 31 - 1, Math.max(this.deps.timeGatherMs ?? 20, earliest - this.deps.clock()));
    this.arm(delay);
  }

  /** A tick after `delay`; one that fails (Postgres away) is tried again a second later, not dropped with its wakes. */
  private arm(delay: number): void {
    this.timer = setTimeout(
      () =>
        void this.tick().catch((error: unknown) => {
          this.deps.logger.warn({ event: 'timer_failed', retry_in_ms: TIMER_RETRY_MS, error: error instanceof Error ? error.message : String(error) });
          if (this.stopped) return;
          if (this.timer !== undefined) clearTimeout(this.timer);
          this.arm(TIMER_RETRY_MS);
        }),
      delay,
    );
    this.timer.unref();
  }

  /** Applies every time-driven change due by the clock's now (the timer calls it; tests with a fake clock too). */
  async tick(): Promise<number> {
    let changes = 0;
    for (const [partition, due] of [...this.memory]) {
      // A partition with nothing due costs no transaction (a tick finds one or two due tiles among many partitions).
      const now = this.deps.clock();
      if (![...due.wakes.values()].some((wake) => wake.at <= now)) continue;
      this.deps.metrics.timerTransaction();
      await this.consumer?.withClaim(partition, async (tx) => {
        const memory = this.memory.get(partition);
        if (memory === undefined) return;
        const now = this.deps.clock();
        const set = this.newSet(memory);
        for (const [tileId, wake] of [...memory.wakes]) {
          if (wake.at > now) continue;
          const project = await this.deps.rules.get(wake.projectKey);
          const tile = project.rules.tiles.get(tileId);
          const row = project.rows.get(tileId);
          const states = await this.projectStates(tx, memory, wake.projectKey);
          const before = states.get(tileId);
          if (tile === undefined || row === undefined || before === undefined) {
            if (tile === undefined && before !== undefined) set.delete(tileId);
            else memory.wakes.delete(tileId);
            continue;
          }
          if (isGrouped(tile, memory.groups.get(wake.projectKey)?.get(tileId))) {
            advanceGroupedTile(this.groupedContext(memory, set, states, project), tile, row, now);
            continue;
          }
          const { state, adopted } = this.stateOf(set, states, tile, row.fingerprint, now);
          if (adopted !== undefined) set.record(row, wake.projectKey, adopted, before);
          set.record(
            row,
            wake.projectKey,
            tile.evaluator.advance(state, now),
            adopted === undefined ? before : { ...adopted.state, fingerprint: row.fingerprint },
          );
        }
        await set.write(tx, partition, memory.stream, this.deps.topics);
        changes += set.changeCount;
        return () => this.commit(memory, set);
      });
    }
    this.schedule();
    return changes;
  }

  /** Rule changes: each loaded state moves to its tile's new rule now (a `rule` change), deleted tiles' states go. */
  async applyRuleChanges(changes: readonly RuleChange[]): Promise<void> {
    for (const change of changes) {
      for (const [partition, memory] of this.memory) {
        if (!memory.projects.has(change.projectKey)) continue;
        await this.consumer?.withClaim(partition, async (tx) => {
          const states = await this.projectStates(tx, memory, change.projectKey);
          const set = this.adoptAll(change.previous, change.next, states, this.newSet(memory), this.deps.clock(), memory.groups.get(change.projectKey));
          await set.write(tx, partition, memory.stream, this.deps.topics);
          return () => this.commit(memory, set);
        });
      }
    }
  }

  /**
   * Moves every state of a project that is not on its tile's current rule to
   * it (`adoptRule`: what the old rule had due first, then `cause: rule`), and
   * drops the states of deleted tiles, into `set`. A state already on the
   * current rule is left alone, so running this twice (an event's re-read,
   * then the control topic's message) changes nothing the second time.
   */
  private adoptAll(
    previous: ProjectTiles,
    next: ProjectTiles,
    states: Map<number, StoredState>,
    set: ChangeSet,
    now: number,
    tileGroups: TileGroups | undefined,
  ): ChangeSet {
    const tileIds = new Set(states.keys());
    for (const write of set.states.values()) if (write.projectKey === next.projectKey) tileIds.add(write.tileId);
    for (const tileId of tileIds) {
      if (set.deleted.has(tileId)) continue;
      const before = set.state(tileId) ?? states.get(tileId);
      if (before === undefined) continue;
      const tile = next.rules.tiles.get(tileId);
      const row = next.rows.get(tileId);
      if (tile === undefined || row === undefined) {
        set.delete(tileId);
        continue;
      }
      if (before.fingerprint === row.fingerprint) continue;
      const old = previous.rows.get(tileId)?.fingerprint === before.fingerprint ? previous.rules.tiles.get(tileId) : undefined;
      const committed = tileGroups?.get(tileId);
      if (isGrouped(tile, committed) || old?.grouping) {
        const groups = groupsIn(set, committed, tileId);
        recordAdoption(set, row, next.projectKey, adoptGroupedRule(old, tile, before, groups, now), groups, before);
        continue;
      }
      set.record(row, next.projectKey, adoptRule(old, tile, before, now), before);
    }
    return set;
  }

  /**
   * Applies a replay request (tile_replays, POST /tiles/:id/replay with
   * dry_run false) if this instance holds the project's partition: in one
   * transaction fenced by the claim and run between this partition's batches,
   * the tile's current rule over the stored events this engine had applied
   * (after the store has stored them all), its history since `since`
   * replaced by the replay's (not relayed: those transitions were told when
   * they happened), its state set to the replay's, and, when that differs from
   * the live state, one closing change (cause `rule`, relayed: dashboards and
   * notifications learn the state moved), then the outcome for the gateway.
   * No event is applied twice or lost across the switch: batches after it
   * start from the replayed state. Returns whether it was this instance's.
   */
  async applyReplay(request: ReplayRequest): Promise<boolean> {
    const partition = this.deps.partitionOf(request.project_key);
    if (!this.memory.has(partition)) return false;
    // Rules at least as new as the gateway knew, adopted first in their own turn (as the control topic would).
    const { change } = await this.deps.rules.atLeast(request.project_key, request.revision);
    if (change !== undefined) await this.applyRuleChanges([change]);
    const done = await this.consumer?.withClaim(partition, async (tx) => {
      const memory = this.memory.get(partition);
      if (memory === undefined || !(await takeReplay(tx, request.id))) return;
      const fail = async (message: string, field?: string) => finishReplay(tx, request.id, { ok: false, message, ...(field === undefined ? {} : { field }) });
      const project = await this.deps.rules.get(request.project_key);
      const tile = project.rules.tiles.get(request.tile_id);
      const row = project.rows.get(request.tile_id);
      if (tile === undefined || row === undefined) return void (await fail('the tile no longer exists'));
      if (tile.grouping !== null || (memory.groups.get(request.project_key)?.get(tile.id)?.size ?? 0) > 0) {
        return void (await fail('a grouped tile (group_by) cannot be replayed; preview its rule instead', 'rule'));
      }
      const stored = await waitForStore(tx, {
        engineGroupId: this.deps.groupId,
        storeGroupId: this.deps.storeGroupId,
        topic: this.deps.eventsTopic,
        partition,
      });
      if (stored === undefined) return void (await fail('the store has not stored every event the rule engine applied yet; retry shortly'));
      const now = this.deps.clock();
      const replay = new RulePreview(row.rule as TileRule);
      const end = await replayStored(tx, replay, { projectKey: request.project_key, since: request.since, partition, applied: stored.applied, now });
      if (end === 'too_many') return void (await fail('covers more than 1000000 events (the most a replay reads); choose a later since', 'since'));
      if (end === 'too_slow') return void (await fail('takes more than 10 s to read; choose a later since', 'since'));

      const states = await this.projectStates(tx, memory, request.project_key);
      const set = this.newSet(memory);
      const before = states.get(tile.id);
      const live: TileState = before ?? tile.evaluator.initialState();
      // The live state as of now (its timer may not have fired yet), for the comparison.
      const settled = before !== undefined && before.fingerprint === row.fingerprint ? tile.evaluator.advance(live, now).state : live;
      const final = replay.current;
      const equal = settled.status === final.status && settled.value === final.value;
      await deleteHistorySince(tx, tile.id, request.since);
      const replayed = renumbered(replay.changes, live.version);
      await insertHistory(
        tx,
        replayed.map((c) => ({
          tileId: tile.id,
          projectKey: request.project_key,
          tileName: row.name,
          change: c,
          rulesRevision: project.revision,
          relayStream: null,
          traceparent: null,
        })),
      );
      let state: TileState = { ...final, version: live.version + replayed.length };
      const changes: TileStateChange[] = [];
      if (!equal) {
        const closing: TileStateChange = {
          cause: 'rule',
          status: final.status,
          previous_status: settled.status,
          value: final.value,
          previous_value: settled.value,
          version: state.version + 1,
          event_id: null,
          changed_at: now,
        };
        changes.push(closing);
        state = { ...state, version: closing.version, last_event_id: null, changed_at: now };
      }
      set.record(row, request.project_key, { state, changes, wakeAt: tile.evaluator.wakeAt(state) }, undefined);
      await set.write(tx, partition, memory.stream, this.deps.topics);
      const result: ReplayResult = {
        ok: true,
        state: published(state),
        live: published(live),
        equal,
        events_replayed: replay.matched,
        changes_total: replay.changeCount,
        until: new Date(now).toISOString(),
      };
      await announceReplaced(tx, this.deps.topics, partition, {
        project_key: request.project_key,
        tile_id: tile.id,
        tile_name: row.name,
        since: request.since.toISOString(),
        until: result.until,
        state: result.state,
      });
      await finishReplay(tx, request.id, result);
      this.deps.logger.info({
        event: 'tile_replayed',
        tile_id: tile.id,
        project_key: request.project_key,
        events_replayed: replay.matched,
        changes: replay.changeCount,
        equal,
      });
      return () => {
        this.commit(memory, set);
        // The tile_replaced message leaves now, also when no change was written (the replay equal to the live state).
        this.deps.onCommitted({ history: [], outbox: true });
      };
    });
    return done === true;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
