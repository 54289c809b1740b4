import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaArbitrary, withinLength } from './schema-arbitrary.ts';

const noRefs = () => undefined;

describe('schemaArbitrary', () => {
  // A filter on pattern strings once spun forever on this schema (the integration
  // secrets' `secret`): the fuzz suite hung the CI run, which no test timeout can stop.
  it('generates strings of a pattern whose plain output is shorter than minLength, within the bounds', () => {
    const schema = { type: 'string', minLength: 16, maxLength: 256, pattern: '^[\\x21-\\x7e]+$' };
    const values = fc.sample(schemaArbitrary(schema, noRefs, { mutation: 0 }), 500) as string[];
    expect(values).toHaveLength(500);
    const re = /^[\x21-\x7e]+$/;
    for (const v of values) {
      expect(v.length).toBeLessThanOrEqual(256);
      if (v.length > 0) expect(v.length).toBeGreaterThanOrEqual(16);
    }
    expect(values.filter((v) => re.test(v)).length).toBeGreaterThan(400);
  });

  it('cuts pattern strings longer than maxLength', () => {
    const values = fc.sample(schemaArbitrary({ type: 'string', maxLength: 3, pattern: '^a+$' }, noRefs, { mutation: 0 }), 300) as string[];
    expect(values.every((v) => v.length <= 3)).toBe(true);
  });

  it('withinLength repeats a short value up to min and cuts at max', () => {
    expect(withinLength('ab', 5, 100)).toBe('ababab');
    expect(withinLength('abcdef', 0, 4)).toBe('abcd');
    expect(withinLength('', 3, 10)).toBe('');
  });
});
