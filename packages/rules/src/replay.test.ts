import { describe, expect, it } from 'vitest';
import type { TileRule } from '@pulseboard/contracts';
import { compileEvaluator, type TileEvaluator } from './evaluator.ts';
import type { RuleEvent } from './event.ts';
import { MINUTE, SECOND, T0, ruleEvent, seededRandom } from './test-support.ts';
import type { TileState, TileStateChange } from './tile-state.ts';

const RULES: TileRule[] = [
  {
    evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
    pending: '20s',
    stale_after: '5m',
  },
  { evaluation: { kind: 'threshold', attribute: 'value', warning: 40, critical: 80 }, pending: '30s', recovery: '1m', stale_after: '3m' },
  { evaluation: { kind: 'threshold', attribute: 'value', warning: 40, critical: 10, direction: 'below' }, recovery: '45s' },
  { evaluation: { kind: 'up_down', attribute: 'is_up' }, pending: '10s', recovery: '10s', stale_after: '2m' },
  { evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 3, critical: 6 }, recovery: '20s' },
  { evaluation: { kind: 'window', aggregate: 'avg', attribute: 'value', window: '2m', warning: 50, critical: 70 }, pending: '15s', stale_after: '4m' },
  { evaluation: { kind: 'window', aggregate: 'max', attribute: 'value', window: '90s', warning: 60, critical: 90 } },
  { evaluation: { kind: 'window', aggregate: 'min', attribute: 'value', window: '30s', critical: 5, direction: 'below' }, stale_after: '1m' },
];

type Operation = { now: number; event: RuleEvent } | { now: number; tick: true };

/** A seeded mix of events (in order, late, ahead of the clock, without the attribute) and clock ticks. */
function operations(seed: number, count: number): Operation[] {
  const random = seededRandom(seed);
  const names = ['deploy_started', 'deploy_finished', 'deploy_failed', 'deploy_rolled_back'];
  const list: Operation[] = [];
  let now = T0;
  for (let i = 0; i < count; i++) {
    now += Math.floor(random() * 20 * SECOND);
    if (random() < 0.25) {
      list.push({ now, tick: true });
      continue;
    }
    const skew = random() < 0.2 ? -Math.floor(random() * 2 * MINUTE) : random() < 0.05 ? Math.floor(random() * MINUTE) : 0;
    const attributes = random() < 0.1 ? {} : { value: Math.floor(random() * 100), is_up: random() < 0.7 };
    list.push({ now, event: ruleEvent({ id: i + 1, name: names[Math.floor(random() * names.length)] as string, time: now + skew, attributes }) });
  }
  return list;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Runs the operations from the initial state; `between` may replace the state after each step (a reload). */
function run(evaluator: TileEvaluator, ops: readonly Operation[], between: (state: TileState) => TileState = (state) => state) {
  let state = evaluator.initialState();
  const states: TileState[] = [];
  const changes: TileStateChange[] = [];
  const wakes: (number | null)[] = [];
  for (const op of ops) {
    const step = 'event' in op ? evaluator.applyEvent(state, op.event, op.now) : evaluator.advance(state, op.now);
    state = between(step.state);
    states.push(state);
    changes.push(...step.changes);
    wakes.push(step.wakeAt);
  }
  return { states, changes, wakes };
}

describe('replay', () => {
  const ops = operations(7, 600);

  it.each(RULES.map((rule) => [rule.evaluation.kind, rule] as const))(
    'gives identical states and changes for the same sequence, through JSON and frozen inputs (%s)',
    (_kind, rule) => {
      const evaluator = compileEvaluator(rule);
      const first = run(evaluator, ops);
      // The state is all there is: reloading it from JSON (as from jsonb) after every step, and
      // freezing it (nothing may be changed in place), changes nothing.
      const reloaded = run(evaluator, ops, (state) => deepFreeze(JSON.parse(JSON.stringify(state)) as TileState));
      expect(reloaded).toStrictEqual(first);
      // The sequence did exercise the tile.
      expect(first.changes.length).toBeGreaterThan(10);
    },
  );

  it.each(RULES.map((rule) => [rule.evaluation.kind, rule] as const))('numbers changes one by one, each from the state before it (%s)', (_kind, rule) => {
    const { changes, states } = run(compileEvaluator(rule), ops);
    changes.forEach((change, i) => {
      expect(change.version).toBe(i + 1);
      const before = changes[i - 1];
      expect([change.previous_status, change.previous_value]).toEqual(before === undefined ? ['unknown', null] : [before.status, before.value]);
      expect(change.status !== change.previous_status || change.value !== change.previous_value).toBe(true);
      if (before !== undefined) expect(change.changed_at).toBeGreaterThanOrEqual(before.changed_at);
      expect(change.event_id === null).toBe(change.cause === 'time');
    });
    expect(states.at(-1)?.version).toBe(changes.length);
  });

  it('tells the timer exactly when a tile needs it: advancing just before changes nothing, at the time it does something', () => {
    for (const rule of RULES) {
      const evaluator = compileEvaluator(rule);
      let state = evaluator.initialState();
      let woken = 0;
      for (const op of ops) {
        const step = 'event' in op ? evaluator.applyEvent(state, op.event, op.now) : evaluator.advance(state, op.now);
        state = step.state;
        const wake = step.wakeAt;
        if (wake === null) continue;
        expect(evaluator.advance(state, wake - 1).state).toBe(state);
        expect(evaluator.advance(state, wake).state).not.toBe(state);
        woken++;
      }
      expect(woken).toBeGreaterThan(0);
    }
  });

  it('evaluates a long stream of one tile without growing its state (no timing asserted)', () => {
    const evaluator = compileEvaluator({ evaluation: { kind: 'window', aggregate: 'sum', attribute: 'value', window: '1d', warning: 1e9 } });
    let state = evaluator.initialState();
    for (let i = 0; i < 100_000; i++)
      state = evaluator.applyEvent(state, ruleEvent({ id: i + 1, time: T0 + i * 500, attributes: { value: 1 } }), T0 + i * 500).state;
    expect(state.value).toBe(100_000);
    expect(state.evaluation.window?.length).toBeLessThanOrEqual(256);
    expect(JSON.stringify(state).length).toBeLessThan(16_384);
  });
});
