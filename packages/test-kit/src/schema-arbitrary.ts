import fc, { type Arbitrary } from 'fast-check';

type Schema = Record<string, unknown> | boolean;
export type SchemaResolver = (ref: string) => Schema | undefined;

/** Strings that have broken parsers and databases before: control characters, unpaired surrogates, lookalikes, injection. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  '💥',
  'é',
  '\u202e',
  '\ufeff',
  '\n',
  '\\',
  '"',
  "'",
  '%00',
  '%',
  '..',
  '../../etc/passwd',
  "'; DROP TABLE projects; --",
  '$1',
  '${x}',
  '{{x}}',
  '<script>',
  'null',
  'undefined',
  'NaN',
  '0',
  '-1',
  '1e400',
  '9'.repeat(40),
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  'evt_1',
  'evt_',
  'evk_x',
  'evu_x',
  '2024-02-30T25:61:61Z',
  '0000-01-01T00:00:00Z',
];

/** Any JSON value, with the nasty strings and numbers mixed in. */
export const anyJson: Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MIN_VALUE, true, false, null) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...NASTY_STRINGS), { maxLength: 5 }) },
);

export const nastyString: Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
);

/**
 * A fast-check arbitrary of values a JSON Schema describes (draft 7 / 2019
 * keywords the project's schemas use: type, enum, const, properties,
 * required, additionalProperties, items, min/max bounds, pattern, anyOf,
 * oneOf, allOf's first member, $ref), where with probability `mutation`
 * each node is replaced by something it does not allow (a wrong type, a
 * nasty string, a missing required field, an unknown field). Valid values
 * reach the handlers; mutated ones the validation and what lies beside it.
 */
export function schemaArbitrary(schema: Schema, resolve: SchemaResolver, options: { mutation?: number; depth?: number } = {}): Arbitrary<unknown> {
  const mutation = options.mutation ?? 0.15;
  const depth = options.depth ?? 0;
  const valid = validArbitrary(schema, resolve, mutation, depth);
  if (mutation <= 0 || depth > 6) return valid;
  return fc.oneof({ weight: Math.round((1 - mutation) * 100), arbitrary: valid }, { weight: Math.round(mutation * 100), arbitrary: anyJson });
}

function validArbitrary(schema: Schema, resolve: SchemaResolver, mutation: number, depth: number): Arbitrary<unknown> {
  if (schema === true) return anyJson;
  if (schema === false) return fc.constant(undefined);
  const next = (inner: unknown) => schemaArbitrary(inner as Schema, resolve, { mutation, depth: depth + 1 });
  if (typeof schema.$ref === 'string') {
    const target = resolve(schema.$ref);
    return target === undefined || depth > 8 ? anyJson : validArbitrary(target, resolve, mutation, depth + 1);
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return fc.oneof(...(schema[key] as Schema[]).map((member) => validArbitrary(member, resolve, mutation, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return validArbitrary(schema.allOf[0] as Schema, resolve, mutation, depth + 1);
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : schema.properties !== undefined
        ? ['object']
        : [];
  if (types.length === 0) return anyJson;
  return fc.oneof(...types.map((type) => typed(type, schema, next, depth)));
}

/**
 * A pattern's string brought within minLength..maxLength by repeating and
 * cutting it, never by filtering: fast-check's filter retries synchronously
 * until a value passes, and a pattern whose generated strings are always
 * shorter than minLength (`^[\x21-\x7e]+$` with minLength 16) made it spin
 * forever, out of reach of any test timeout. The result may no longer match
 * the pattern; for a fuzzer that is one more invalid input.
 */
export function withinLength(value: string, min: number, max: number): string {
  let out = value;
  if (out.length < min && out.length > 0) out = out.repeat(Math.ceil(min / out.length));
  return out.length > max ? out.slice(0, max) : out;
}

function typed(type: string, s: Record<string, unknown>, next: (inner: unknown) => Arbitrary<unknown>, depth: number): Arbitrary<unknown> {
  const num = (key: string) => (typeof s[key] === 'number' ? s[key] : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num('minimum') ?? (num('exclusiveMinimum') === undefined ? -(2 ** 31) : num('exclusiveMinimum')! + 1);
      const max = num('maximum') ?? (num('exclusiveMaximum') === undefined ? 2 ** 31 : num('exclusiveMaximum')! - 1);
      return fc.oneof(fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(num('minimum') === undefined ? {} : { min: num('minimum')! }),
        ...(num('maximum') === undefined ? {} : { max: num('maximum')! }),
      });
    case 'string': {
      if (typeof s.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(s.pattern)).map((v) => withinLength(v, num('minLength') ?? 0, num('maxLength') ?? 10_000));
        } catch {
          return fc.string();
        }
      }
      if (s.format === 'date-time' || s.format === 'iso-date-time')
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'uri') return fc.webUrl();
      return fc.string({ minLength: num('minLength') ?? 0, maxLength: Math.min(num('maxLength') ?? 60, 300) });
    }
    case 'array': {
      const items = s.items === undefined ? anyJson : next(s.items);
      return fc.array(items, { minLength: num('minItems') ?? 0, maxLength: Math.min(num('maxItems') ?? 5, depth > 2 ? 3 : 8) });
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      const record: Record<string, Arbitrary<unknown>> = {};
      for (const [name, inner] of Object.entries(properties)) record[name] = next(inner);
      const known = fc.record(record, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
      if (s.additionalProperties === false || Object.keys(properties).length > 0) return known;
      // A free-form object (settings, attributes, config): a few fields of any JSON.
      return fc.dictionary(fc.string({ maxLength: 20 }), anyJson, { maxKeys: 5 });
    }
    default:
      return anyJson;
  }
}
