import type { RuleEvent } from './event.ts';

/** A fixed instant the unit tests count from. */
export const T0 = Date.parse('2026-03-01T12:00:00.000Z');
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

let nextId = 1;

/** A matched event for the evaluator tests: a metric stamped `time` (T0 unless given). */
export function ruleEvent(fields: Partial<RuleEvent> = {}): RuleEvent {
  return {
    id: nextId++,
    type: 'metric',
    name: 'cpu_usage',
    time: T0,
    severity: undefined,
    source: undefined,
    channel: undefined,
    labels: [],
    attributes: {},
    ...fields,
  };
}

/** A small deterministic generator (mulberry32), so randomised tests replay exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
