import { describe, expect, it } from 'vitest';
import { createAjv, detailsValidator, hasUnstorableText, jsonLongerThan, jsonShapeProblem, jsonTextMayHoldUnstorable, MAX_JSON_LEVELS } from './validation.ts';
import { eventEnvelopeSchema } from './event-envelope.schema.ts';

const validate = detailsValidator(createAjv(), eventEnvelopeSchema);
const valid = { project_key: 'web', type: 'metric', name: 'cpu_usage', timestamp: '2026-01-02T03:04:05Z', attributes: { value: 91.5 } };

describe('event envelope validation messages (spec 2.1, CONTRACT Events)', () => {
  it('accepts a minimal envelope and every optional field', () => {
    expect(validate(valid)).toBeNull();
    expect(validate({ ...valid, severity: 'critical', channel: 'ops', correlation_id: 'c1', source: 'host-1', labels: ['a', 'b'] })).toBeNull();
  });

  it('accepts ISO 8601 timestamps with and without offset, rejects others', () => {
    for (const timestamp of ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.123+02:00', '2026-01-02T03:04:05']) {
      expect(validate({ ...valid, timestamp })).toBeNull();
    }
    for (const timestamp of ['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z']) {
      expect(validate({ ...valid, timestamp })).toEqual({ timestamp: ['is not a valid ISO 8601 timestamp'] });
    }
    expect(validate({ ...valid, timestamp: '' })).toMatchObject({ timestamp: expect.arrayContaining(['is not a valid ISO 8601 timestamp']) });
  });

  it('says "can\'t be blank" for missing, null and empty required fields', () => {
    expect(validate({})).toEqual({
      project_key: ["can't be blank"],
      type: ["can't be blank"],
      name: ["can't be blank"],
      timestamp: ["can't be blank"],
      attributes: ["can't be blank"],
    });
    expect(validate({ ...valid, name: '' })).toEqual({ name: ["can't be blank"] });
    expect(validate({ ...valid, name: null })).toEqual({ name: ["can't be blank"] });
  });

  it('uses the contract wording for types, lists and lengths', () => {
    expect(validate({ ...valid, type: 'weather' })).toEqual({ type: ['is not included in the list'] });
    expect(validate({ ...valid, severity: 'fatal' })).toEqual({ severity: ['is not included in the list'] });
    expect(validate({ ...valid, name: 42 })).toEqual({ name: ['must be a string'] });
    expect(validate({ ...valid, attributes: [1] })).toEqual({ attributes: ['must be an object'] });
    expect(validate({ ...valid, labels: 'prod' })).toEqual({ labels: ['must be an array of strings'] });
    expect(validate({ ...valid, labels: ['ok', 3] })).toEqual({ labels: ['must be an array of strings'] });
    expect(validate({ ...valid, name: 'x'.repeat(201) })).toEqual({ name: ['is too long (maximum is 200 characters)'] });
  });

  it('reports a non-object body as base, and prefixes batch fields', () => {
    expect(validate([valid])).toEqual({ base: ['must be an object'] });
    expect(validate('x')).toEqual({ base: ['must be an object'] });
    expect(validate({ ...valid, type: 'nope' }, 'events[3].')).toEqual({ 'events[3].type': ['is not included in the list'] });
  });

  it('refuses text Postgres cannot store (NUL, unpaired surrogates) instead of accepting and losing it', () => {
    const message = ['contains a NUL character or an unpaired surrogate'];
    expect(validate({ ...valid, name: 'a\u0000b' })).toEqual({ name: message });
    expect(validate({ ...valid, attributes: { nested: ['ok', { deep: '\ud800' }] } })).toEqual({ attributes: message });
    expect(validate({ ...valid, attributes: { ['k\u0000']: 1 } })).toEqual({ attributes: message });
    expect(validate({ ...valid, labels: ['\udc00x'] })).toEqual({ labels: message });
    // A proper pair (an emoji) is fine.
    expect(validate({ ...valid, name: 'deploy 🚀', attributes: { by: '👩‍💻' } })).toBeNull();
  });

  it('needs no storable-text walk for JSON text without a \\u escape: every unstorable string is written with one', () => {
    const unstorable = ['\u0000', 'a\u0000', '\ud800', 'x\udfffy', '\ud83d', { ['k\u0000']: 1 }, ['ok', { deep: '\udc00' }]];
    for (const value of unstorable) {
      expect(hasUnstorableText(value)).toBe(true);
      expect(jsonTextMayHoldUnstorable(JSON.stringify(value))).toBe(true);
    }
    expect(jsonTextMayHoldUnstorable(JSON.stringify({ ...valid, name: 'deploy 🚀 café', attributes: { tab: '\t', quote: '"' } }))).toBe(false);
    // With the walk switched off (for such text), the keyword lets everything through.
    expect(detailsValidator(createAjv({ storableText: false }), eventEnvelopeSchema)({ ...valid, name: 'a\u0000b' })).toBeNull();
  });

  it('refuses attributes nested deeper than 32 levels and numbers that are not finite (CONTRACT Events), at any depth without overflowing', () => {
    const nested = (levels: number, leaf: unknown = 1): unknown => {
      let value: unknown = leaf;
      for (let i = levels - 1; i >= 0; i--) value = i % 2 === 0 ? { a: value } : [value];
      return value;
    };
    expect(validate({ ...valid, attributes: nested(32) })).toBeNull();
    expect(validate({ ...valid, attributes: nested(33) })).toEqual({ attributes: ['is nested too deeply (maximum is 32 levels)'] });
    // Far deeper than any stack: still a clear answer (JSON.parse itself does not recurse).
    const deep = JSON.parse(`{"a":${'['.repeat(200_000)}1${']'.repeat(200_000)}}`) as unknown;
    expect(validate({ ...valid, attributes: deep })).toEqual({ attributes: ['is nested too deeply (maximum is 32 levels)'] });
    expect(validate({ ...valid, attributes: { deep, text: '\u0000' } })).toEqual({
      attributes: ['contains a NUL character or an unpaired surrogate', 'is nested too deeply (maximum is 32 levels)'],
    });

    const huge = JSON.parse('{"value": 1e400, "ok": [1, -1e400]}') as Record<string, unknown>;
    expect(huge.value).toBe(Infinity);
    expect(validate({ ...valid, attributes: huge })).toEqual({ attributes: ['must contain only finite numbers'] });
    expect(validate({ ...valid, attributes: nested(30, JSON.parse('-1e999')) })).toEqual({ attributes: ['must contain only finite numbers'] });
    expect(validate({ ...valid, attributes: { big: 1.7976931348623157e308, small: 5e-324, zero: -0 } })).toBeNull();
  });

  it('jsonShapeProblem counts the value itself as level 1 and recurses no deeper than the bound', () => {
    expect(MAX_JSON_LEVELS).toBe(32);
    expect(jsonShapeProblem({}, 1)).toBeUndefined();
    expect(jsonShapeProblem({ a: {} }, 1)).toBe('too_deep');
    expect(jsonShapeProblem([[1]], 2)).toBeUndefined();
    expect(jsonShapeProblem('x'.repeat(10), 0)).toBeUndefined();
    expect(jsonShapeProblem(NaN)).toBe('not_finite');
    expect(hasUnstorableText(JSON.parse(`${'['.repeat(200_000)}"fine"${']'.repeat(200_000)}`))).toBe(false);
    expect(hasUnstorableText(JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`))).toBe(true);
  });
});

describe('jsonLongerThan (the serialised-size cap of stored free-form JSON)', () => {
  it('counts UTF-8 bytes of the JSON text: ASCII, three-byte characters, surrogate pairs and escapes', () => {
    const sized = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    for (const value of [
      { a: 'x'.repeat(100) },
      { a: '€'.repeat(40) },
      { a: '😀'.repeat(30) },
      { a: '\ud800'.repeat(10) },
      { a: '"\n'.repeat(20) },
      [1, [2, { b: null }]],
    ]) {
      const bytes = sized(value);
      expect(jsonLongerThan(value, bytes), JSON.stringify(value)).toBe(false);
      expect(jsonLongerThan(value, bytes - 1), JSON.stringify(value)).toBe(true);
    }
  });
});
