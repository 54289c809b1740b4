import { describe, expect, it } from 'vitest';
import type { TileRule } from '@pulseboard/contracts';
import { compileEvaluator } from './evaluator.ts';
import type { RuleEvent } from './event.ts';
import { MINUTE, SECOND, T0, ruleEvent } from './test-support.ts';
import type { EvaluationStep, TileState } from './tile-state.ts';

/** One tile driven by hand: events and clock ticks at explicit engine times. */
function tile(rule: TileRule) {
  const evaluator = compileEvaluator(rule);
  let state = evaluator.initialState();
  const record = (step: EvaluationStep) => {
    state = step.state;
    return step;
  };
  return {
    get state(): TileState {
      return state;
    },
    /** An event stamped `time` (default: `now`) arriving at engine time `now`. */
    send: (now: number, fields: Partial<RuleEvent> = {}) => record(evaluator.applyEvent(state, ruleEvent({ time: now, ...fields }), now)),
    tick: (now: number) => record(evaluator.advance(state, now)),
    wakeAt: () => evaluator.wakeAt(state),
  };
}

const shown = (state: TileState) => [state.status, state.value];
const value = (v: unknown) => ({ attributes: { value: v } });

describe('status_map', () => {
  const deployments = tile({
    filter: { type: 'deployment' },
    evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
  });

  it('takes the status the event name maps to, the name as value, and counts the change', () => {
    const step = deployments.send(T0, { id: 101, name: 'deploy_started' });
    expect(step.changes).toEqual([
      {
        cause: 'event',
        status: 'warning',
        previous_status: 'unknown',
        value: 'deploy_started',
        previous_value: null,
        version: 1,
        event_id: 101,
        changed_at: T0,
      },
    ]);
    expect(step.state).toMatchObject({ status: 'warning', value: 'deploy_started', version: 1, last_event_id: 101, changed_at: T0 });
    expect(step.wakeAt).toBeNull();
  });

  it('leaves the tile as it is for a name not in the map', () => {
    const before = deployments.state;
    const step = deployments.send(T0 + SECOND, { name: 'deploy_rolled_back' });
    expect(step.changes).toEqual([]);
    expect(step.state).toBe(before);
  });

  it('ignores an event older than the one shown (out of order), and a repeat changes nothing visible', () => {
    expect(shown(deployments.send(T0 + 2 * SECOND, { name: 'deploy_finished' }).state)).toEqual(['ok', 'deploy_finished']);
    const late = deployments.send(T0 + 3 * SECOND, { name: 'deploy_failed', time: T0 + SECOND });
    expect(late.changes).toEqual([]);
    expect(shown(late.state)).toEqual(['ok', 'deploy_finished']);
    const repeat = deployments.send(T0 + 4 * SECOND, { name: 'deploy_finished' });
    expect(repeat.changes).toEqual([]);
    expect(repeat.state.version).toBe(2);
  });
});

describe('threshold', () => {
  it('compares the latest value, above meaning at or above', () => {
    const cpu = tile({ evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } });
    const seen = [50, 79.9, 80, 94, 95, 100, 20].map((v, i) => shown(cpu.send(T0 + i * SECOND, value(v)).state));
    expect(seen).toEqual([
      ['ok', 50],
      ['ok', 79.9],
      ['warning', 80],
      ['warning', 94],
      ['critical', 95],
      ['critical', 100],
      ['ok', 20],
    ]);
    expect(cpu.state.version).toBe(7);
  });

  it('compares below meaning at or below, with either level alone', () => {
    const disk = tile({ evaluation: { kind: 'threshold', attribute: 'disk.free_gb', warning: 10, critical: 2, direction: 'below' } });
    expect([11, 10, 2.5, 2, 0].map((v, i) => disk.send(T0 + i, { attributes: { disk: { free_gb: v } } }).state.status)).toEqual([
      'ok',
      'warning',
      'warning',
      'critical',
      'critical',
    ]);
    const latency = tile({ evaluation: { kind: 'threshold', attribute: 'value', critical: 2000 } });
    expect([1999, 2000].map((v, i) => latency.send(T0 + i, value(v)).state.status)).toEqual(['ok', 'critical']);
  });

  it('counts a value-only change as a change, and ignores an event without a number there', () => {
    const cpu = tile({ evaluation: { kind: 'threshold', attribute: 'value', warning: 80 } });
    cpu.send(T0, value(50));
    const step = cpu.send(T0 + SECOND, value(60));
    expect(step.changes).toMatchObject([{ status: 'ok', previous_status: 'ok', value: 60, previous_value: 50, version: 2 }]);
    for (const attributes of [{ value: '97' }, { value: null }, { value: true }, {}, { value: { n: 97 } }]) {
      const before = cpu.state;
      expect(cpu.send(T0 + 2 * SECOND, { attributes }).state).toBe(before);
    }
  });
});

describe('up_down', () => {
  it('is ok for true and critical for false, with the boolean as value', () => {
    const api = tile({ evaluation: { kind: 'up_down', attribute: 'is_up' } });
    expect(shown(api.send(T0, { attributes: { is_up: true } }).state)).toEqual(['ok', true]);
    expect(shown(api.send(T0 + 1, { attributes: { is_up: false } }).state)).toEqual(['critical', false]);
    expect(api.send(T0 + 2, { attributes: { is_up: 'true' } }).changes).toEqual([]);
    expect(api.send(T0 + 3, { attributes: { is_up: false } }).changes).toEqual([]);
    expect(shown(api.send(T0 + 4, { attributes: { is_up: true } }).state)).toEqual(['ok', true]);
  });
});

describe('window', () => {
  const errors = () => tile({ evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 2, critical: 3 } });

  it('counts the matching events of the last window and falls as they leave, each at its own time', () => {
    const counter = errors();
    expect([0, 10, 20].map((s) => shown(counter.send(T0 + s * SECOND).state))).toEqual([
      ['ok', 1],
      ['warning', 2],
      ['critical', 3],
    ]);
    expect(counter.wakeAt()).toBe(T0 + MINUTE);
    const early = counter.tick(T0 + MINUTE - 1);
    expect(early.changes).toEqual([]);
    expect(early.wakeAt).toBe(T0 + MINUTE);
    expect(counter.tick(T0 + MINUTE).changes).toEqual([
      { cause: 'time', status: 'warning', previous_status: 'critical', value: 2, previous_value: 3, version: 4, event_id: null, changed_at: T0 + MINUTE },
    ]);
    expect(counter.state.last_event_id).toBeNull();
    expect(counter.wakeAt()).toBe(T0 + MINUTE + 10 * SECOND);
    counter.tick(T0 + MINUTE + 10 * SECOND);
    expect(shown(counter.state)).toEqual(['ok', 1]);
    counter.tick(T0 + MINUTE + 20 * SECOND);
    expect(shown(counter.state)).toEqual(['ok', 0]);
    expect(counter.wakeAt()).toBeNull();
  });

  it('counts an event stamped just inside the window and not one stamped exactly at its start', () => {
    const counter = errors();
    counter.send(T0, { time: T0 });
    const now = T0 + 30 * SECOND;
    const atStart = counter.send(now, { time: now - MINUTE });
    expect(atStart.changes).toEqual([]);
    expect(counter.state.value).toBe(1);
    const inside = counter.send(now, { time: now - MINUTE + 1 });
    expect(inside.state.value).toBe(2);
    // The event stamped a millisecond inside leaves a millisecond later.
    expect(inside.wakeAt).toBe(now + 1);
    expect(counter.tick(now + 1).state.value).toBe(1);
  });

  it('counts a late event by its own time, and one stamped ahead of the clock as now', () => {
    const counter = errors();
    counter.send(T0 + 30 * SECOND, { time: T0 + 30 * SECOND });
    counter.send(T0 + 31 * SECOND, { time: T0 });
    expect(counter.wakeAt()).toBe(T0 + MINUTE);
    counter.send(T0 + 32 * SECOND, { time: T0 + 3_600_000 });
    expect(counter.state.value).toBe(3);
    counter.tick(T0 + MINUTE);
    expect(counter.state.value).toBe(2);
    counter.tick(T0 + 90 * SECOND);
    expect(counter.state.value).toBe(1);
    expect(counter.wakeAt()).toBe(T0 + 92 * SECOND);
  });

  it('aggregates a numeric attribute; an event without one is not counted', () => {
    const make = (aggregate: 'sum' | 'avg' | 'min' | 'max') =>
      tile({ evaluation: { kind: 'window', aggregate, attribute: 'duration_seconds', window: '5m', warning: 100 } });
    const run = (aggregate: 'sum' | 'avg' | 'min' | 'max') => {
      const t = make(aggregate);
      t.send(T0, { attributes: { duration_seconds: 30 } });
      t.send(T0 + MINUTE, { attributes: { duration_seconds: 90 } });
      t.send(T0 + 2 * MINUTE, { attributes: { duration_seconds: '60' } });
      t.send(T0 + 2 * MINUTE, { attributes: {} });
      const values = [t.state.value];
      t.tick(T0 + 5 * MINUTE);
      values.push(t.state.value);
      t.tick(T0 + 6 * MINUTE);
      values.push(t.state.value, t.state.status);
      return values;
    };
    expect(run('sum')).toEqual([120, 90, 0, 'ok']);
    expect(run('avg')).toEqual([60, 90, null, 'ok']);
    expect(run('min')).toEqual([30, 90, null, 'ok']);
    expect(run('max')).toEqual([90, 90, null, 'ok']);
    expect(make('sum').send(T0, { attributes: { duration_seconds: 150 } }).state.status).toBe('warning');
  });

  it('catches up in one change when the timer comes late, dated when the last change really happened', () => {
    const counter = errors();
    [0, 1, 2].forEach((s) => counter.send(T0 + s * SECOND));
    const late = counter.tick(T0 + 10 * MINUTE);
    expect(late.changes).toEqual([
      {
        cause: 'time',
        status: 'ok',
        previous_status: 'critical',
        value: 0,
        previous_value: 3,
        version: 4,
        event_id: null,
        changed_at: T0 + MINUTE + 2 * SECOND,
      },
    ]);
    expect(late.state.evaluation.at).toBe(T0 + 10 * MINUTE);
  });
});

describe('damping', () => {
  const rule = (extra: Partial<TileRule>): TileRule => ({ evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 }, ...extra });

  it('pending: a worse level is taken only once it has held that long; the value shows at once', () => {
    const cpu = tile(rule({ pending: '1m' }));
    cpu.send(T0, value(50));
    const spike = cpu.send(T0 + 10 * SECOND, value(99));
    expect(shown(spike.state)).toEqual(['ok', 99]);
    expect(spike.changes).toMatchObject([{ cause: 'event', status: 'ok', value: 99 }]);
    expect(spike.wakeAt).toBe(T0 + 70 * SECOND);
    expect(cpu.tick(T0 + 70 * SECOND - 1).changes).toEqual([]);
    expect(cpu.tick(T0 + 70 * SECOND).changes).toEqual([
      { cause: 'time', status: 'critical', previous_status: 'ok', value: 99, previous_value: 99, version: 3, event_id: null, changed_at: T0 + 70 * SECOND },
    ]);
  });

  it('pending: a spike that falls back in time never shows', () => {
    const cpu = tile(rule({ pending: '1m' }));
    cpu.send(T0, value(50));
    cpu.send(T0 + 10 * SECOND, value(99));
    const back = cpu.send(T0 + 30 * SECOND, value(60));
    expect(back.wakeAt).toBeNull();
    cpu.tick(T0 + 5 * MINUTE);
    expect(shown(cpu.state)).toEqual(['ok', 60]);
  });

  it('pending: climbing through warning to critical, each level once it has held', () => {
    const cpu = tile(rule({ pending: '1m' }));
    cpu.send(T0, value(50));
    cpu.send(T0 + 10 * SECOND, value(85));
    cpu.send(T0 + 40 * SECOND, value(97));
    expect(cpu.wakeAt()).toBe(T0 + 70 * SECOND);
    expect(cpu.tick(T0 + 70 * SECOND).state.status).toBe('warning');
    expect(cpu.wakeAt()).toBe(T0 + 100 * SECOND);
    expect(cpu.tick(T0 + 100 * SECOND).state.status).toBe('critical');
  });

  it('pending applies when leaving unknown for a worse level; ok is taken at once', () => {
    const first = tile(rule({ pending: '1m' }));
    expect(shown(first.send(T0, value(99)).state)).toEqual(['unknown', 99]);
    expect(first.tick(T0 + MINUTE).state.status).toBe('critical');
    const calm = tile(rule({ pending: '1m', recovery: '5m' }));
    expect(calm.send(T0, value(10)).state.status).toBe('ok');
  });

  it('recovery: a better level is taken only once it has held that long, as far as it has', () => {
    const cpu = tile(rule({ recovery: '2m' }));
    cpu.send(T0, value(99));
    expect(cpu.state.status).toBe('critical');
    cpu.send(T0 + 10 * SECOND, value(50));
    expect(shown(cpu.state)).toEqual(['critical', 50]);
    // A warning reading half way: still at most warning since 10 s, no longer ok.
    cpu.send(T0 + 70 * SECOND, value(85));
    expect(cpu.wakeAt()).toBe(T0 + 130 * SECOND);
    expect(cpu.tick(T0 + 130 * SECOND).state.status).toBe('warning');
    cpu.send(T0 + 140 * SECOND, value(40));
    expect(cpu.tick(T0 + 260 * SECOND - 1).state.status).toBe('warning');
    expect(cpu.tick(T0 + 260 * SECOND).state.status).toBe('ok');
  });

  it('recovery: going worse again is at once without pending', () => {
    const cpu = tile(rule({ recovery: '2m' }));
    cpu.send(T0, value(99));
    cpu.send(T0 + SECOND, value(10));
    cpu.send(T0 + 2 * SECOND, value(99));
    cpu.tick(T0 + 10 * MINUTE);
    expect(cpu.state.status).toBe('critical');
  });

  it('damps a window as its value falls with time', () => {
    const counter = tile({ evaluation: { kind: 'window', aggregate: 'count', window: '1m', critical: 2 }, recovery: '30s' });
    counter.send(T0);
    counter.send(T0 + SECOND);
    expect(counter.state.status).toBe('critical');
    // The first event leaves at 60 s: the count is 1 (ok), which must hold 30 s.
    expect(counter.tick(T0 + 60 * SECOND).state.status).toBe('critical');
    expect(counter.wakeAt()).toBe(T0 + 61 * SECOND);
    // A late timer still dates the run from 60 s, when the count fell.
    expect(counter.tick(T0 + 95 * SECOND).changes).toMatchObject([{ status: 'ok', value: 0, changed_at: T0 + 90 * SECOND }]);
  });
});

describe('stale', () => {
  const api = () => tile({ filter: { name: 'http_check' }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '10m' });

  it('makes the tile stale when no matching event came for that long, keeping its value', () => {
    const check = api();
    expect(check.wakeAt()).toBeNull();
    check.send(T0, { attributes: { is_up: true } });
    expect(check.wakeAt()).toBe(T0 + 10 * MINUTE);
    expect(check.tick(T0 + 10 * MINUTE - 1).changes).toEqual([]);
    expect(check.tick(T0 + 10 * MINUTE).changes).toEqual([
      { cause: 'time', status: 'stale', previous_status: 'ok', value: true, previous_value: true, version: 2, event_id: null, changed_at: T0 + 10 * MINUTE },
    ]);
    expect(check.wakeAt()).toBeNull();
  });

  it('leaves stale with the next fresh event, and not with a backfilled old one', () => {
    const check = api();
    check.send(T0, { attributes: { is_up: true } });
    check.tick(T0 + 10 * MINUTE);
    const old = check.send(T0 + 11 * MINUTE, { time: T0 + 30 * SECOND, attributes: { is_up: false } });
    expect(shown(old.state)).toEqual(['stale', false]);
    const fresh = check.send(T0 + 12 * MINUTE, { attributes: { is_up: false } });
    expect(fresh.changes).toMatchObject([{ status: 'critical', previous_status: 'stale' }]);
  });

  it('never makes a tile without events stale, and pending holds a stale tile until a worse level has held', () => {
    const quiet = api();
    expect(quiet.tick(T0 + 365 * 24 * 60 * MINUTE).changes).toEqual([]);
    const damped = tile({ evaluation: { kind: 'up_down', attribute: 'is_up' }, pending: '1m', stale_after: '5m' });
    damped.send(T0, { attributes: { is_up: true } });
    damped.tick(T0 + 5 * MINUTE);
    damped.send(T0 + 6 * MINUTE, { attributes: { is_up: false } });
    expect(damped.state.status).toBe('stale');
    expect(damped.tick(T0 + 7 * MINUTE).state.status).toBe('critical');
  });

  it('starts pending again after staleness: a level held before the gap does not count', () => {
    const damped = tile({ evaluation: { kind: 'up_down', attribute: 'is_up' }, pending: '1m', stale_after: '5m' });
    damped.send(T0, { attributes: { is_up: false } });
    expect(damped.tick(T0 + MINUTE).state.status).toBe('critical');
    expect(damped.tick(T0 + 5 * MINUTE).state.status).toBe('stale');
    damped.send(T0 + 6 * MINUTE, { attributes: { is_up: false } });
    expect(damped.state.status).toBe('stale');
    expect(damped.wakeAt()).toBe(T0 + 7 * MINUTE);
    expect(damped.tick(T0 + 7 * MINUTE).state.status).toBe('critical');
  });
});

describe('the engine clock', () => {
  it('never runs backwards for a tile: an earlier now counts as the last one', () => {
    const counter = tile({ evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 5 } });
    counter.send(T0 + MINUTE);
    const step = counter.send(T0, { time: T0 + MINUTE });
    expect(step.state.evaluation.at).toBe(T0 + MINUTE);
    expect(step.state.value).toBe(2);
    expect(step.wakeAt).toBe(T0 + 2 * MINUTE);
  });
});
