import type { TileRule } from '@pulseboard/contracts';
import type { RuleEvent } from './event.ts';
import { compileTile, type CompiledTile } from './project-rules.ts';
import type { TileState, TileStateChange } from './tile-state.ts';

/**
 * A tile rule replayed over stored events, as the rule engine would have run
 * it live: one fresh state (unknown), each event the filter matches applied at
 * the engine time it was handled (`now`, given by the caller: when the event
 * was received), and between events the time-driven changes taken at the
 * times the engine's timer would have fired (the state's `wakeAt`), not at
 * the next event. The same evaluator as the engine (`compileTile`), so the
 * same events and times give the same changes.
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

  constructor(
    rule: TileRule,
    private readonly keep = Number.POSITIVE_INFINITY,
  ) {
    this.tile = compileTile(0, rule);
    this.state = this.tile.evaluator.initialState();
  }

  /** An event (in the order the engine would meet it) handled at engine time `now`; time never runs backwards. */
  push(event: RuleEvent, now: number): void {
    this.scanned++;
    if (!this.tile.matches(event)) return;
    this.matched++;
    const at = this.settle(now);
    const step = this.tile.evaluator.applyEvent(this.state, event, at);
    this.take(step.changes, step.state);
  }

  /** Takes the time-driven changes due by `now` (the end of the replay). */
  finish(now: number): void {
    this.settle(now);
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
