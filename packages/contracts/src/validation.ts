import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isCommonIsoDateTime } from './iso-date-time.ts';
import { ATTRIBUTE_PATH_PATTERN, DURATION_PATTERN } from './rule-patterns.ts';

/** `details` of a validation error: field name → messages (spec 7). */
export type ValidationDetails = Record<string, string[]>;

// NUL and unpaired UTF-16 surrogates are valid JSON but Postgres text and jsonb
// refuse them: an event holding one would be accepted and then fail to store.
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a JSON value holds a string (or key) Postgres cannot store. Iterative: any depth is fine. */
export function hasUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNSTORABLE.test(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, inner] of Object.entries(next)) {
        if (UNSTORABLE.test(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Free-form JSON (attributes, settings) nests at most this many levels; the object itself is level 1 (CONTRACT Events). */
export const MAX_JSON_LEVELS = 32;

/** Tile and project `settings`, serialised, take at most this many bytes (SECURITY.md, Caps): every subscriber's snapshot carries every tile's. */
export const MAX_SETTINGS_BYTES = 16384;

/** A notification service's `config`, serialised, takes at most this many bytes (its fields are bounded by type too). */
export const MAX_NOTIFICATION_CONFIG_BYTES = 8192;

export type JsonShapeProblem = 'too_deep' | 'not_finite';

/**
 * What makes a free-form JSON value unstorable as given: nesting deeper than
 * `maxLevels` (it would also overflow the stack of JSON.stringify further on),
 * or a number that is not finite (`JSON.parse('1e400')` is Infinity, which
 * JSON.stringify would turn into null). Recurses at most `maxLevels + 1` deep,
 * whatever the value; allocates nothing. Undefined when the value is fine.
 */
export function jsonShapeProblem(value: unknown, maxLevels: number = MAX_JSON_LEVELS): JsonShapeProblem | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'not_finite';
  if (typeof value !== 'object' || value === null) return undefined;
  if (maxLevels <= 0) return 'too_deep';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonShapeProblem(value[i], maxLevels - 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  for (const key in value) {
    const problem = jsonShapeProblem((value as Record<string, unknown>)[key], maxLevels - 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Whether a JSON value, serialised (UTF-8, no whitespace), takes more than
 * `maxBytes`: the cap on free-form JSON a tenant stores (tile and project
 * settings, notification config), which every reader of it (a dashboard's
 * snapshot, broadcast's tile views) holds and sends whole. A value too deep
 * to serialise is left to `boundedJson`, which refuses it (false here).
 */
export function jsonLongerThan(value: unknown, maxBytes: number): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return false;
  }
  // UTF-8 takes at least a byte per UTF-16 unit and at most three: only text near the cap is measured.
  if (text === undefined || text.length <= maxBytes / 3) return false;
  if (text.length > maxBytes) return true;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A surrogate pair is one code point of four bytes: two units, two bytes each.
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit < 0xe000) ? 2 : 3;
  }
  return bytes > maxBytes;
}

/**
 * JSON text can hold NUL or a lone surrogate only as a `\u` escape: a raw
 * control character is a syntax error, and UTF-8 decoding turns an encoded
 * surrogate into U+FFFD. So a body whose text has no `\u` needs no storable-text walk.
 */
export function jsonTextMayHoldUnstorable(text: string): boolean {
  return text.includes('\\u');
}

/**
 * One ajv for every shared schema, so `$ref` between them resolves. With
 * `storableText: false` the keyword passes everything: for data parsed from
 * JSON text that `jsonTextMayHoldUnstorable` cleared.
 */
export function createAjv(options: { storableText?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: false });
  addFormats.default(ajv, ['date-time', 'iso-date-time', 'email', 'uri']);
  // Same verdicts, a one-pass check first: a batch validates 100 timestamps.
  const isoDateTime = ajv.formats['iso-date-time'] as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat('iso-date-time', { ...isoDateTime, validate: (s: string) => isCommonIsoDateTime(s) || isoDateTime.validate(s) });
  addPulseboardKeywords(ajv, options);
  return ajv;
}

/**
 * The keywords of the shared schemas, for any ajv (fastify's included):
 * `storableText` (no NUL or lone surrogate) and `boundedJson: N` (at most N
 * levels, finite numbers; see jsonShapeProblem).
 */
export function addPulseboardKeywords(ajv: Ajv, options: { storableText?: boolean } = {}): Ajv {
  const checkStorable = options.storableText ?? true;
  ajv.addKeyword({
    keyword: 'storableText',
    schemaType: 'boolean',
    errors: true,
    validate: (enabled: boolean, data: unknown) => !enabled || !checkStorable || !hasUnstorableText(data),
  });
  const boundedJson = (maxLevels: number, data: unknown): boolean => {
    const problem = jsonShapeProblem(data, maxLevels);
    if (problem === undefined) return true;
    boundedJson.errors = [{ keyword: 'boundedJson', params: { problem, limit: maxLevels } }];
    return false;
  };
  boundedJson.errors = [] as Partial<ErrorObject>[];
  ajv.addKeyword({ keyword: 'boundedJson', schemaType: 'number', errors: true, validate: boundedJson });
  const maxJsonBytes = (maxBytes: number, data: unknown): boolean => {
    // A value `boundedJson` refuses (too deep: also long, often) gets its message alone.
    if (!jsonLongerThan(data, maxBytes) || jsonShapeProblem(data) !== undefined) return true;
    maxJsonBytes.errors = [{ keyword: 'maxJsonBytes', params: { limit: maxBytes } }];
    return false;
  };
  maxJsonBytes.errors = [] as Partial<ErrorObject>[];
  ajv.addKeyword({ keyword: 'maxJsonBytes', schemaType: 'number', errors: true, validate: maxJsonBytes });
  return ajv;
}

const TYPE_MESSAGES: Record<string, string> = {
  string: 'must be a string',
  object: 'must be an object',
  integer: 'must be an integer',
  number: 'must be a number',
  boolean: 'must be true or false',
  array: 'must be an array',
  'integer,null': 'must be an integer or null',
  null: 'must be null',
};

const PATTERN_MESSAGES: Record<string, string> = {
  [DURATION_PATTERN]: 'is not a valid duration',
  [ATTRIBUTE_PATH_PATTERN]: 'is not a valid attribute path',
};

/** The contract's wording (CONTRACT.md, Events) for one ajv error about `field`, whose value is `value`. */
export function messageFor(error: ErrorObject, field: string, value: unknown, arrayOfStrings: ReadonlySet<string>): string {
  switch (error.keyword) {
    case 'required':
      return "can't be blank";
    case 'minLength':
      return error.params.limit === 1 ? "can't be blank" : `is too short (minimum is ${error.params.limit} characters)`;
    case 'maxLength':
      return `is too long (maximum is ${error.params.limit} characters)`;
    case 'maxItems':
      return `is too long (maximum is ${error.params.limit} items)`;
    case 'minItems':
      if (error.params.limit === 1) return "can't be empty";
      return `is too short (minimum is ${error.params.limit} items)`;
    case 'minProperties':
      return error.params.limit === 1 ? "can't be empty" : `is too short (minimum is ${error.params.limit} fields)`;
    case 'maxProperties':
      return `is too long (maximum is ${error.params.limit} fields)`;
    case 'enum':
    case 'const':
      return 'is not included in the list';
    case 'pattern':
      return PATTERN_MESSAGES[String(error.params.pattern)] ?? (field === 'timestamp' ? 'is not a valid ISO 8601 timestamp' : 'is invalid');
    case 'format':
      return error.params.format === 'email' ? 'is not a valid email' : 'is not a valid ISO 8601 timestamp';
    case 'minimum':
    case 'exclusiveMinimum':
      return `must be greater than or equal to ${error.params.limit}`;
    case 'maximum':
      return `must be less than or equal to ${error.params.limit}`;
    case 'type':
      if (value === null || value === undefined) return "can't be blank";
      if (arrayOfStrings.has(field)) return 'must be an array of strings';
      return TYPE_MESSAGES[String(error.params.type)] ?? `must be of type ${String(error.params.type)}`;
    case 'additionalProperties':
      return 'is not a known field';
    case 'false schema':
      return 'must be blank';
    case 'storableText':
      return 'contains a NUL character or an unpaired surrogate';
    case 'maxJsonBytes':
      return `is too large (maximum is ${error.params.limit} bytes as JSON)`;
    case 'boundedJson':
      return error.params.problem === 'too_deep' ? `is nested too deeply (maximum is ${error.params.limit} levels)` : 'must contain only finite numbers';
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * Turns ajv errors into the `details` map of spec 7, keyed by top-level field
 * (`labels`, not `labels/3`), prefixed for batches (`events[3].type`).
 */
export function toValidationDetails(
  errors: readonly ErrorObject[],
  data: unknown,
  options: { prefix?: string; arrayOfStrings?: ReadonlySet<string> } = {},
): ValidationDetails {
  const details: ValidationDetails = {};
  const prefix = options.prefix ?? '';
  const arrayOfStrings = options.arrayOfStrings ?? new Set(['labels']);
  for (const error of errors) {
    const segments = error.instancePath.split('/').slice(1);
    let field = segments[0] ?? '';
    if (error.keyword === 'required') field = String(error.params.missingProperty);
    if (error.keyword === 'additionalProperties') field = String(error.params.additionalProperty);
    const key = field === '' ? (prefix === '' ? 'base' : prefix.replace(/\.$/, '')) : `${prefix}${field}`;
    const value = field === '' ? data : (data as Record<string, unknown> | null)?.[field];
    const message = field === '' && error.keyword === 'type' ? 'must be an object' : messageFor(error, field, value, arrayOfStrings);
    const list = (details[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return details;
}

/** Compiles a schema once and validates into `details`, or null when valid. */
export function detailsValidator(ajv: Ajv, schema: object): (data: unknown, prefix?: string) => ValidationDetails | null {
  const validate: ValidateFunction = ajv.compile(schema);
  return (data, prefix) => (validate(data) ? null : toValidationDetails(validate.errors ?? [], data, prefix === undefined ? {} : { prefix }));
}
