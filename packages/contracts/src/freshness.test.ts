import { describe, expect, it } from 'vitest';
import { createAjv } from './validation.ts';
import { freshnessOf, projectFreshnessSchema } from './freshness.ts';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const ends = (low: number, high: number) => ({ low: BigInt(low), high: BigInt(high) });
const progress = (nextOffset: number, appliedThroughMsAgo: number | null) => ({
  nextOffset: BigInt(nextOffset),
  appliedThrough: appliedThroughMsAgo === null ? null : NOW - appliedThroughMsAgo,
});

describe('freshnessOf', () => {
  it('is live (0) when the engine applied everything acknowledged, however old its newest event: a quiet project is not behind', () => {
    const f = freshnessOf(progress(120, 3 * 3600_000), ends(0, 120), NOW);
    expect(f).toMatchObject({ status: 'live', behind_seconds: 0, pending_events: 0, applied_through: '2026-11-28T09:00:00.000Z' });
    expect(f.measured_at).toBe('2026-11-28T12:00:00.000Z');
  });

  it('is the age of applied_through when events wait, with the status of the thresholds (30 s amber, 300 s red)', () => {
    expect(freshnessOf(progress(100, 2_340), ends(0, 103), NOW)).toMatchObject({ status: 'live', behind_seconds: 2.3, pending_events: 3 });
    expect(freshnessOf(progress(100, 29_940), ends(0, 101), NOW)).toMatchObject({ status: 'live', behind_seconds: 29.9 });
    expect(freshnessOf(progress(100, 30_050), ends(0, 101), NOW).status).toBe('behind');
    expect(freshnessOf(progress(100, 299_000), ends(0, 5000), NOW)).toMatchObject({ status: 'behind', behind_seconds: 299, pending_events: 4900 });
    expect(freshnessOf(progress(100, 300_000), ends(0, 101), NOW).status).toBe('far_behind');
  });

  it('counts from the earliest kept offset before the engine applied any, and is unknown while it has never reported a time', () => {
    expect(freshnessOf(progress(-1, null), ends(40, 40), NOW)).toMatchObject({ status: 'live', behind_seconds: 0, pending_events: 0 });
    expect(freshnessOf(undefined, ends(40, 45), NOW)).toMatchObject({ status: 'unknown', behind_seconds: null, pending_events: 5, applied_through: null });
    expect(freshnessOf(progress(-1, 1000), ends(40, 45), NOW)).toMatchObject({ status: 'live', behind_seconds: 1, pending_events: 5 });
  });

  it('is unknown without the end offsets (Kafka unreachable), and never negative when clocks are apart', () => {
    expect(freshnessOf(progress(100, 1000), undefined, NOW)).toMatchObject({ status: 'unknown', behind_seconds: null, pending_events: null });
    expect(freshnessOf(progress(100, -5000), ends(0, 110), NOW)).toMatchObject({ status: 'live', behind_seconds: 0 });
    // A report ahead of the end offsets read (read a moment earlier): nothing waits.
    expect(freshnessOf(progress(130, 1000), ends(0, 120), NOW)).toMatchObject({ status: 'live', pending_events: 0 });
  });

  it('answers what its schema (the API contract) describes', () => {
    const validate = createAjv().compile(projectFreshnessSchema);
    for (const f of [freshnessOf(progress(1, 5), ends(0, 1), NOW), freshnessOf(undefined, ends(0, 9), NOW), freshnessOf(undefined, undefined, NOW)])
      expect(validate(f), JSON.stringify(validate.errors)).toBe(true);
  });
});
