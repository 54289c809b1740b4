import { describe, expect, it } from 'vitest';
import addFormats from 'ajv-formats';
import { Ajv } from 'ajv';
import { isCommonIsoDateTime } from './iso-date-time.ts';
import { createAjv } from './validation.ts';

// The format as ajv-formats defines it, the reference for every verdict.
const reference = (() => {
  const ajv = new Ajv();
  addFormats.default(ajv, ['iso-date-time']);
  return (ajv.formats['iso-date-time'] as { validate: (s: string) => boolean }).validate;
})();
const ours = (() => {
  const ajv = createAjv();
  return ajv.compile({ type: 'string', format: 'iso-date-time' });
})();

let seed = 7;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const ALPHABET = '0123456789-:.+TtZz \t\u00a0x';

/** A valid-looking timestamp with one or two characters changed, dropped or added. */
function mutated(): string {
  const year = String(random(10_000)).padStart(4, '0');
  const two = (max: number) => String(random(max)).padStart(2, '0');
  const zones = ['', 'Z', 'z', `+${two(25)}:${two(61)}`, `-${two(24)}:${two(60)}`, `+${two(24)}${two(60)}`, `-${two(24)}`];
  let s = `${year}-${two(14)}-${two(33)}${'Tt '[random(3)]}${two(25)}:${two(61)}:${two(62)}${random(2) === 0 ? '' : `.${'1234567'.slice(0, random(8))}`}${zones[random(zones.length)]}`;
  for (let edits = random(3); edits > 0; edits--) {
    const at = random(s.length + 1);
    const c = ALPHABET[random(ALPHABET.length)]!;
    const kind = random(3);
    s = kind === 0 ? s.slice(0, at) + c + s.slice(at + 1) : kind === 1 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + c + s.slice(at);
  }
  return s;
}

describe('iso-date-time: the one-pass check', () => {
  it('accepts the usual shapes', () => {
    for (const s of ['2026-01-02T03:04:05Z', '2026-01-02t03:04:05.123456+02:00', '2026-01-02 03:04:05', '2024-02-29T23:59:59-11:30', '2000-02-29T00:00:00z']) {
      expect(isCommonIsoDateTime(s)).toBe(true);
      expect(reference(s)).toBe(true);
    }
  });

  it('never accepts what ajv-formats refuses, and with the fallback gives its verdict on every string', () => {
    let accepted = 0;
    let refused = 0;
    // Disagreements collected and asserted once: an expect() per string would cost more than the checks.
    const disagreements: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const s = mutated();
      const expected = reference(s);
      if (isCommonIsoDateTime(s) && !expected) disagreements.push(`one pass accepts ${JSON.stringify(s)}`);
      if (ours(s) !== expected) disagreements.push(`${JSON.stringify(s)}: ${ours(s)}, ajv-formats ${expected}`);
      if (expected) accepted++;
      else refused++;
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    // The sample covers both verdicts in earnest.
    expect(accepted).toBeGreaterThan(20_000);
    expect(refused).toBeGreaterThan(20_000);
  });

  it('leaves the forms it does not read to ajv-formats (leap second, compact offsets, other spaces)', () => {
    for (const s of ['2026-06-30T23:59:60Z', '2026-01-02T03:04:05+0200', '2026-01-02T03:04:05+02', '2026-01-02\t03:04:05Z']) {
      expect(isCommonIsoDateTime(s)).toBe(false);
      expect(ours(s)).toBe(reference(s));
      expect(reference(s)).toBe(true);
    }
    for (const s of ['1900-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-02T24:00:00Z', '2026-01-02T03:04:05.Z', '2026-01-02T03:04:05+24:00']) {
      expect(isCommonIsoDateTime(s)).toBe(false);
      expect(ours(s)).toBe(false);
    }
  });
});
