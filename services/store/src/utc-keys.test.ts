import { describe, expect, it } from 'vitest';
import { eventTimeMs, type IngestedEvent } from '@pulseboard/contracts';
import { renderBatch } from './event-writer.ts';
import { utcDay, utcMonth } from './utc-keys.ts';

const at = (iso: string) => Date.parse(iso);

describe('utcDay and utcMonth', () => {
  it('split at UTC midnight, month and year ends, and leap days', () => {
    const cases: [string, string, string][] = [
      ['2026-11-25T23:59:59.999Z', '2026-11-25', '2026-11-01'],
      ['2026-11-26T00:00:00.000Z', '2026-11-26', '2026-11-01'],
      ['2026-11-30T23:59:59.999Z', '2026-11-30', '2026-11-01'],
      ['2026-12-01T00:00:00.000Z', '2026-12-01', '2026-12-01'],
      ['2026-12-31T23:59:59.999Z', '2026-12-31', '2026-12-01'],
      ['2027-01-01T00:00:00.000Z', '2027-01-01', '2027-01-01'],
      ['2028-02-28T23:59:59.999Z', '2028-02-28', '2028-02-01'],
      ['2028-02-29T00:00:00.000Z', '2028-02-29', '2028-02-01'],
      ['2028-02-29T23:59:59.999Z', '2028-02-29', '2028-02-01'],
      ['2028-03-01T00:00:00.000Z', '2028-03-01', '2028-03-01'],
      ['2027-02-28T23:59:59.999Z', '2027-02-28', '2027-02-01'],
      ['2027-03-01T00:00:00.000Z', '2027-03-01', '2027-03-01'],
      ['1969-12-31T23:59:59.999Z', '1969-12-31', '1969-12-01'],
      ['1970-01-01T00:00:00.000Z', '1970-01-01', '1970-01-01'],
    ];
    // Twice each: the second answer comes from the cache of day numbers.
    for (const _ of [1, 2]) {
      for (const [iso, day, month] of cases) {
        expect([utcDay(at(iso)), utcMonth(at(iso))]).toEqual([day, month]);
      }
    }
  });

  it('name the same day and month as Date does, every hour over four years', () => {
    for (let ms = at('2027-01-01T00:30:00Z'); ms < at('2031-01-01T00:00:00Z'); ms += 3_600_000 + 1) {
      const iso = new Date(ms).toISOString();
      expect(utcDay(ms)).toBe(iso.slice(0, 10));
      expect(utcMonth(ms)).toBe(`${iso.slice(0, 7)}-01`);
    }
  });

  it('throw on a time that is not a number, as toISOString did', () => {
    expect(() => utcDay(Number.NaN)).toThrow(RangeError);
    expect(() => utcMonth(eventTimeMs('not a time'))).toThrow(RangeError);
  });
});

describe('renderBatch counters', () => {
  const event = (id: number, timestamp: string, received_at: string): IngestedEvent => ({
    id,
    project_key: 'p',
    account_id: 1,
    type: 'metric',
    name: 'm',
    timestamp,
    received_at,
    attributes: {},
  });

  it('count months by receipt and days by the event time, across a year end and a zone offset', () => {
    const batch = renderBatch([
      event(1, '2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'),
      event(2, '2027-01-01T01:00:00+02:00', '2027-01-01T00:00:00.000Z'),
      event(3, '2027-01-01T00:00:00Z', '2027-01-01T00:00:00.001Z'),
    ]);
    expect(Object.fromEntries(batch.monthly)).toEqual({ 'p\u00002026-12-01': 1, 'p\u00002027-01-01': 2 });
    expect(Object.fromEntries(batch.daily)).toEqual({ 'p\u00002026-12-31': 2, 'p\u00002027-01-01': 1 });
  });
});
