import { describe, expect, it } from 'vitest';
import type { TileRule } from '@pulseboard/contracts';
import { compileEvaluator } from './evaluator.ts';
import { RulePreview } from './preview.ts';
import { MINUTE, SECOND, T0, ruleEvent } from './test-support.ts';

describe('RulePreview', () => {
  it('applies only matching events and counts them, from unknown, with the evaluator the engine uses', () => {
    const rule: TileRule = { filter: { name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };
    const preview = new RulePreview(rule);
    preview.push(ruleEvent({ id: 1, time: T0, attributes: { value: 50 } }), T0);
    preview.push(ruleEvent({ id: 2, name: 'memory', time: T0 + SECOND, attributes: { value: 99 } }), T0 + SECOND);
    preview.push(ruleEvent({ id: 3, time: T0 + 2 * SECOND, attributes: { value: 97 } }), T0 + 2 * SECOND);
    preview.finish(T0 + MINUTE);
    expect({ scanned: preview.scanned, matched: preview.matched }).toEqual({ scanned: 3, matched: 2 });
    expect(preview.changes.map((c) => [c.previous_status, c.status, c.value, c.event_id, c.cause, c.version])).toEqual([
      ['unknown', 'ok', 50, 1, 'event', 1],
      ['ok', 'critical', 97, 3, 'event', 2],
    ]);
    expect(preview.current.status).toBe('critical');
  });

  it('takes time-driven changes at the times the engine timer fires, between events and up to the end', () => {
    const rule: TileRule = { evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 2, critical: 3 }, stale_after: '5m' };
    const preview = new RulePreview(rule);
    for (let i = 0; i < 3; i++) preview.push(ruleEvent({ id: i + 1, time: T0 + i * SECOND }), T0 + i * SECOND);
    preview.finish(T0 + 10 * MINUTE);

    // The same as an engine whose timer calls advance at each wakeAt.
    const evaluator = compileEvaluator(rule);
    let state = evaluator.initialState();
    const live = [];
    for (let i = 0; i < 3; i++) {
      const step = evaluator.applyEvent(state, ruleEvent({ id: i + 1, time: T0 + i * SECOND }), T0 + i * SECOND);
      state = step.state;
      live.push(...step.changes);
    }
    for (let wake = evaluator.wakeAt(state); wake !== null && wake <= T0 + 10 * MINUTE; wake = evaluator.wakeAt(state)) {
      const step = evaluator.advance(state, wake);
      state = step.state;
      live.push(...step.changes);
    }
    expect(preview.changes).toEqual(live);
    // Each event leaving the window at its own minute, then stale 5 min after the last event.
    expect(preview.changes.map((c) => [c.status, c.value, c.cause, c.changed_at - T0])).toEqual([
      ['ok', 1, 'event', 0],
      ['warning', 2, 'event', SECOND],
      ['critical', 3, 'event', 2 * SECOND],
      ['warning', 2, 'time', MINUTE],
      ['ok', 1, 'time', MINUTE + SECOND],
      ['ok', 0, 'time', MINUTE + 2 * SECOND],
      ['stale', 0, 'time', 2 * SECOND + 5 * MINUTE],
    ]);
  });

  it('keeps only the newest changes it is asked to, counting all', () => {
    const preview = new RulePreview({ evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } }, 3);
    for (let i = 0; i < 100; i++) preview.push(ruleEvent({ id: i + 1, time: T0 + i, attributes: { value: i } }), T0 + i);
    expect(preview.changeCount).toBe(100);
    expect(preview.changes.map((c) => c.value)).toEqual([97, 98, 99]);
  });
});
