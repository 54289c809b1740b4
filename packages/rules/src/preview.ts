import { DEFAULT_MAX_GROUPS_PER_TILE, type TileRule } from '@pulseboard/contracts';
import type { RuleEvent } from './event.ts';
import type { GroupedStep, GroupRecord, Grouping } from './grouping.ts';
import { compileTile, type CompiledTile } from './project-rules.ts';
import type { TileState, TileStateChange } from './tile-state.ts';
import { WakeQueue } from './wake-queue.ts';

/**
 * A tile rule replayed over stored events, as the rule engine would have run
 * it live: one fresh state (unknown), each event the filter matches applied at
 * the engine time it was handled (`now`, given by the caller: when the event
 * was received), and between events the time-driven changes taken at the
 * times the engine's timer would have fired (the state's `wakeAt`), not at
 * the next event. The same evaluator as the engine (`compileTile`), so the
 * same events and times give the same changes. A grouped rule (`group_by`)
 * keeps one state per group as the engine does, each group's time-driven
 * changes taken at its own wake times; `current` is the tile's own state.
 */
export class RulePreview {
  private readonly tile: CompiledTile;
  private state: TileState;
  private clock = Number.NEGATIVE_INFINITY;
  /** Events given to `push` / that the rule's filter matched. */
  scanned = 0;
  matched = 0;
  /** Every change made; only the newest `keep` are held in `changes`. */
  changeCount = 0;
  private readonly kept: TileStateChange[] = [];
  private readonly records = new Map<string, GroupRecord>();
  private readonly wakes = new WakeQueue();

  constructor(
    rule: TileRule,
    private readonly keep = Number.POSITIVE_INFINITY,
    /** A grouped rule's limit (the project's `max_groups_per_tile`). */
    private readonly maxGroups = DEFAULT_MAX_GROUPS_PER_TILE,
  ) {
    this.tile = compileTile(0, rule);
    this.state = this.tile.grouping?.initialState() ?? this.tile.evaluator.initialState();
  }

  /** A grouped rule's groups now, by key (empty for a rule without `group_by`). */
  get groups(): ReadonlyMap<string, GroupRecord> {
    return this.records;
  }

  /** An event (in the order the engine would meet it) handled at engine time `now`; time never runs backwards. */
  push(event: RuleEvent, now: number): void {
    this.scanned++;
    if (!this.tile.matches(event)) return;
    this.matched++;
    const grouping = this.tile.grouping;
    if (grouping !== null) {
      const at = this.settleGroups(grouping, now);
      const key = grouping.keyOf(event);
      const record = key === null ? undefined : this.records.get(key);
      this.takeGrouped(grouping, grouping.applyEvent(this.state, key, record, this.records.size, this.maxGroups, event, at));
      return;
    }
    const at = this.settle(now);
    const step = this.tile.evaluator.applyEvent(this.state, event, at);
    this.take(step.changes, step.state);
  }

  /** Takes the time-driven changes due by `now` (the end of the replay). */
  finish(now: number): void {
    if (this.tile.grouping === null) this.settle(now);
    else this.settleGroups(this.tile.grouping, now);
  }

  get current(): TileState {
    return this.state;
  }

  /** The newest changes (at most `keep`), oldest first. */
  get changes(): readonly TileStateChange[] {
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
    return this.kept;
  }

  private settle(now: number): number {
    this.clock = Math.max(this.clock, now);
    let wake = this.tile.evaluator.wakeAt(this.state);
    while (wake !== null && wake <= this.clock) {
      const step = this.tile.evaluator.advance(this.state, wake);
      this.take(step.changes, step.state);
      const next = this.tile.evaluator.wakeAt(this.state);
      if (next !== null && next <= wake) break; // a wake that does not move on would never end
      wake = next;
    }
    return this.clock;
  }

  /** Every group's time-driven changes due by `now`, in the order of their times. */
  private settleGroups(grouping: Grouping, now: number): number {
    this.clock = Math.max(this.clock, now);
    for (let due = this.wakes.popDue(this.clock); due !== null; due = this.wakes.popDue(this.clock)) {
      const record = this.records.get(due.key);
      if (record !== undefined) this.takeGrouped(grouping, grouping.advance(this.state, due.key, record, due.at), due.at);
    }
    return this.clock;
  }

  /** `advancedTo`: the time a group was advanced to; a wake no later than it would never end, so it is dropped. */
  private takeGrouped(grouping: Grouping, step: GroupedStep, advancedTo = Number.NEGATIVE_INFINITY): void {
    const group = step.group;
    const changes = group === null ? step.tile.changes : [...group.changes, ...step.tile.changes];
    this.take(changes, step.tile.state);
    if (group === null) return;
    if (group.record === null) {
      this.records.delete(group.key);
      this.wakes.set(group.key, null);
      return;
    }
    this.records.set(group.key, group.record);
    const wake = grouping.wakeAt(group.record);
    this.wakes.set(group.key, wake !== null && wake <= advancedTo ? null : wake);
  }

  private take(changes: readonly TileStateChange[], state: TileState): void {
    this.state = state;
    for (const change of changes) {
      this.changeCount++;
      this.kept.push(change);
    }
    // Trimmed in bulk (amortised O(1) per change), to the newest `keep`.
    if (this.kept.length > 2 * this.keep) this.kept.splice(0, this.kept.length - this.keep);
  }
}
