import type { RuleOutcomeWaiter, RuleOutcomeWatch } from './rule-outcomes.ts';

interface Waiting {
  remaining: Set<number>;
  affected: Map<number, number>;
  done: () => void;
}

/**
 * Outcomes of the rule engine as they arrive on the rule-outcomes topic (every
 * gateway instance reads all of them through its own fan-out consumer), handed
 * to the requests of this instance that wait for them. Outcomes of events
 * nobody here waits for are ignored: another gateway accepted those.
 */
export class KafkaRuleOutcomes implements RuleOutcomeWaiter {
  private readonly byEvent = new Map<number, Waiting>();

  /** Feeds one outcome from the topic. */
  receive(outcome: { event_id: number; tiles_affected: number }): void {
    const waiting = this.byEvent.get(outcome.event_id);
    if (waiting === undefined || !waiting.remaining.delete(outcome.event_id)) return;
    this.byEvent.delete(outcome.event_id);
    waiting.affected.set(outcome.event_id, outcome.tiles_affected);
    if (waiting.remaining.size === 0) waiting.done();
  }

  /** Requests waiting now (a gauge, and a check that nothing leaks). */
  get waitingEvents(): number {
    return this.byEvent.size;
  }

  watch(_projectKey: string, eventIds: readonly number[]): RuleOutcomeWatch {
    let done: () => void = () => undefined;
    const complete = new Promise<void>((resolve) => (done = resolve));
    const waiting: Waiting = { remaining: new Set(eventIds), affected: new Map(), done };
    for (const id of eventIds) this.byEvent.set(id, waiting);
    const cancel = () => {
      for (const id of waiting.remaining) if (this.byEvent.get(id) === waiting) this.byEvent.delete(id);
    };
    return {
      cancel,
      result: async (timeoutMs) => {
        if (waiting.remaining.size > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([complete, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
          clearTimeout(timer);
        }
        cancel();
        return waiting.remaining.size === 0 ? waiting.affected : undefined;
      },
    };
  }
}
