import { describe, expect, it } from 'vitest';
import { parseTimeWindow } from './time-window.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const bounds = { defaultMs: HOUR, maxMs: 24 * HOUR };
const parse = (query: Record<string, unknown>) => parseTimeWindow(query, bounds, NOW);

describe('parseTimeWindow', () => {
  it('defaults to the last hour before now', () => {
    expect(parse({})).toEqual({ ok: true, window: { since: new Date(NOW - HOUR), until: new Date(NOW) } });
  });

  it('defaults since to an hour before a given until', () => {
    expect(parse({ until: '2026-02-01T00:00:00Z' })).toEqual({
      ok: true,
      window: { since: new Date('2026-01-31T23:00:00Z'), until: new Date('2026-02-01T00:00:00Z') },
    });
  });

  it('takes a full day, offsets included', () => {
    expect(parse({ since: '2026-02-28T13:00:00+01:00' })).toEqual({ ok: true, window: { since: new Date('2026-02-28T12:00:00Z'), until: new Date(NOW) } });
  });

  it('refuses a window longer than the maximum, an empty one and bad times, with the field named', () => {
    expect(parse({ since: '2026-02-28T11:59:59Z' })).toEqual({ ok: false, details: { since: ['must be at most 24 h before until'] } });
    expect(parse({ since: '2026-03-01T12:00:00Z' })).toEqual({ ok: false, details: { until: ['must be after since'] } });
    expect(parse({ since: 'yesterday', until: ['a', 'b'] })).toEqual({
      ok: false,
      details: { since: ['is not a valid ISO 8601 timestamp'], until: ['must be given once'] },
    });
    expect(parse({ since: '2026-03-01T10:00:00' })).toEqual({ ok: false, details: { since: ['is not a valid ISO 8601 timestamp'] } });
  });
});
