import { describe, expect, it } from 'vitest';
import { eventTimeMs } from './event-time.ts';

/** What eventTimeMs gave before it read the usual form digit by digit: the reference for every case. */
function reference(timestamp: string): number {
  let text = timestamp.length > 10 ? `${timestamp.slice(0, 10)}T${timestamp.slice(11)}` : timestamp;
  if (!/(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/.test(text)) text += 'Z';
  text = text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2').replace(/([+-]\d\d)$/, '$1:00');
  const leap = /^(.{17})60/.exec(text);
  if (leap !== null) return Date.parse(`${leap[1]}59${text.slice(19)}`) + 1000;
  return Date.parse(text);
}

let seed = 11;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const two = (max: number) => String(random(max)).padStart(2, '0');

/** `toISOString()`'s form with random fields (some out of range) and fractions of 0 to 11 digits. */
function usualForm(): string {
  const year = String([random(10_000), 1970 + random(100)][random(2)]).padStart(4, '0');
  const fraction = random(3) === 0 ? '' : `.${'1234567890123'.slice(0, random(12))}`;
  return `${year}-${two(14)}-${two(33)}T${two(25)}:${two(61)}:${two(62)}${fraction}Z`;
}

/** The same with one character changed, dropped or added. */
function mutated(): string {
  const s = usualForm();
  const at = random(s.length + 1);
  const c = '0123456789-:.TZz+ x'[random(19)]!;
  const kind = random(3);
  return kind === 0 ? s.slice(0, at) + c + s.slice(at + 1) : kind === 1 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + c + s.slice(at);
}

describe('eventTimeMs', () => {
  it('reads the usual form as Date.parse does, and every other form as before (200,000 random timestamps)', () => {
    let valid = 0;
    for (let i = 0; i < 200_000; i++) {
      const t = i % 2 === 0 ? usualForm() : mutated();
      const expected = reference(t);
      const got = eventTimeMs(t);
      if (!Object.is(got, expected)) expect({ t, got }).toEqual({ t, got: expected });
      if (!Number.isNaN(expected)) valid++;
    }
    // Both verdicts well represented, so the comparison covers each.
    expect(valid).toBeGreaterThan(40_000);
    expect(valid).toBeLessThan(180_000);
  });

  it('examples: milliseconds, a long fraction cut off, the end of February, a leap second', () => {
    const utc = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(eventTimeMs('2026-01-02T03:04:05Z')).toBe(utc);
    expect(eventTimeMs('2026-01-02T03:04:05.250Z')).toBe(utc + 250);
    expect(eventTimeMs('2026-01-02T03:04:05.1239Z')).toBe(utc + 123);
    expect(eventTimeMs('2026-01-02T03:04:05.5Z')).toBe(utc + 500);
    expect(eventTimeMs('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
    expect(eventTimeMs('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    expect(eventTimeMs('2026-13-01T00:00:00Z')).toBeNaN();
  });
});
