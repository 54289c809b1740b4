import { describe, expect, it } from 'vitest';
import { eventTimeMs, toRuleEvent } from './event.ts';

describe('event time', () => {
  it('reads every timestamp form the gateway accepts, offset-less ones as UTC', () => {
    const utc = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(eventTimeMs('2026-01-02T03:04:05Z')).toBe(utc);
    expect(eventTimeMs('2026-01-02T03:04:05')).toBe(utc);
    expect(eventTimeMs('2026-01-02 03:04:05z')).toBe(utc);
    expect(eventTimeMs('2026-01-02t03:04:05.250Z')).toBe(utc + 250);
    expect(eventTimeMs('2026-01-02T03:04:05.123456Z')).toBe(utc + 123);
    expect(eventTimeMs('2026-01-02T05:04:05+02:00')).toBe(utc);
    expect(eventTimeMs('2026-01-02T05:04:05+0200')).toBe(utc);
    expect(eventTimeMs('2026-01-02T05:04:05+02')).toBe(utc);
    expect(eventTimeMs('2026-01-01T23:04:05-04:00')).toBe(utc);
    expect(eventTimeMs('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    expect(eventTimeMs('yesterday')).toBeNaN();
  });

  it('reads the usual form (…T…Z) as the general path does, leap seconds and bad dates included', () => {
    for (const t of [
      '2026-01-02T03:04:05Z',
      '2026-01-02T03:04:05.1Z',
      '2026-01-02T03:04:05.123456789Z',
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:60.5Z',
      '2026-02-30T03:04:05Z',
      '2026-01-02T03:04:05,5Z',
      '2026-13-02T03:04:05Z',
    ]) {
      // The same text with a numeric zone takes the general path.
      const general = eventTimeMs(`${t.slice(0, -1)}+00:00`);
      if (Number.isNaN(general)) expect(eventTimeMs(t), t).toBeNaN();
      else expect(eventTimeMs(t), t).toBe(general);
    }
  });

  it('takes what the rules read from an ingested event, falling back to its receipt time', () => {
    const ingested = {
      id: 9,
      project_key: 'web',
      account_id: 1,
      type: 'metric' as const,
      name: 'cpu_usage',
      timestamp: '2026-01-02T03:04:05Z',
      received_at: '2026-01-02T03:04:06Z',
      attributes: { value: 1 },
    };
    expect(toRuleEvent(ingested)).toEqual({
      id: 9,
      type: 'metric',
      name: 'cpu_usage',
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      severity: undefined,
      source: undefined,
      channel: undefined,
      labels: [],
      attributes: { value: 1 },
    });
    expect(toRuleEvent({ ...ingested, timestamp: '2026-01-02T03:04:05,5Z' }).time).toBe(Date.UTC(2026, 0, 2, 3, 4, 6));
    expect(toRuleEvent({ ...ingested, labels: ['prod'], severity: 'error', channel: 'eu', source: 'web-1' })).toMatchObject({
      labels: ['prod'],
      severity: 'error',
      channel: 'eu',
      source: 'web-1',
    });
  });
});
