import { describe, expect, it } from 'vitest';
import { KafkaRuleOutcomes } from './kafka-rule-outcomes.ts';

describe('KafkaRuleOutcomes', () => {
  it('resolves once every event of the request has its outcome, ignoring other events', async () => {
    const outcomes = new KafkaRuleOutcomes();
    const watch = outcomes.watch('p', [1, 2]);
    outcomes.receive({ event_id: 3, tiles_affected: 9 });
    outcomes.receive({ event_id: 1, tiles_affected: 2 });
    outcomes.receive({ event_id: 2, tiles_affected: 0 });
    expect(await watch.result(1000)).toEqual(new Map([[1, 2], [2, 0]]));
    expect(outcomes.waitingEvents).toBe(0);
  });

  it('gives undefined past the bound and forgets the request', async () => {
    const outcomes = new KafkaRuleOutcomes();
    const watch = outcomes.watch('p', [1, 2]);
    outcomes.receive({ event_id: 1, tiles_affected: 1 });
    expect(await watch.result(20)).toBeUndefined();
    expect(outcomes.waitingEvents).toBe(0);
  });

  it('an outcome that arrived before result() was asked for still counts', async () => {
    const outcomes = new KafkaRuleOutcomes();
    const watch = outcomes.watch('p', [5]);
    outcomes.receive({ event_id: 5, tiles_affected: 3 });
    expect(await watch.result(0)).toEqual(new Map([[5, 3]]));
  });
});
