import type { ErrorObject } from 'ajv';
import { messageFor, type ValidationDetails } from './validation.ts';

/** A complaint ajv did not phrase itself: what is left of an `anyOf` whose alternatives all failed. */
interface Summary {
  instancePath: string;
  message: string;
}

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  null: 'null',
  object: 'an object',
  array: 'an array',
};

// The alternatives this package's schemas offer, in words a user knows.
const TYPE_CHOICES: Record<string, string> = {
  'string,array': 'must be a string or an array of strings',
  'string,number,boolean,null,object': 'must be a string, a number, true or false, null, or an object of operators',
};

function typeChoiceMessage(types: readonly string[]): string {
  const known = TYPE_CHOICES[types.join(',')];
  if (known !== undefined) return known;
  const nouns = types.map((type) => NOUNS[type] ?? type);
  return `must be ${nouns.length <= 2 ? nouns.join(' or ') : `${nouns.slice(0, -1).join(', ')}, or ${nouns.at(-1)}`}`;
}

const isAtOrUnder = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
const isChildOf = (path: string, base: string) => path.startsWith(`${base}/`) && !path.slice(base.length + 1).includes('/');

const typeErrorAt = (list: readonly ErrorObject[], at: string) =>
  list.find((error) => error.keyword === 'type' && error.instancePath === at)?.params.type as string | undefined;

/**
 * What stands of one failed `anyOf` at `at`, given each alternative's errors:
 * - alternatives that each lack one property (`warning` or `critical`): "needs warning or critical";
 * - an error of the surrounding schema at or under the value (a missing or
 *   unknown `kind`) explains it: nothing of the alternatives stands;
 * - an alternative of another JSON type, or whose `const` discriminator
 *   differs, was not meant; of those that remain, the errors of the closest
 *   stand; if none remains, the value's type was wrong: "must be a string or
 *   an array of strings".
 */
function verdict(at: string, alternatives: readonly ErrorObject[][], explainedBySiblings: boolean): { keep: readonly ErrorObject[]; summary?: string } {
  const missing = alternatives.map((list) =>
    list.length === 1 && list[0]?.keyword === 'required' && list[0].instancePath === at ? String(list[0].params.missingProperty) : null,
  );
  if (missing.every((name) => name !== null)) return { keep: [], summary: `needs ${missing.join(' or ')}` };
  if (explainedBySiblings) return { keep: [] };
  const meant = alternatives.filter(
    (list) => typeErrorAt(list, at) === undefined && !list.some((error) => error.keyword === 'const' && isChildOf(error.instancePath, at)),
  );
  if (meant.length > 0) return { keep: meant.reduce((closest, list) => (list.length < closest.length ? list : closest)) };
  const types = alternatives.map((list) => typeErrorAt(list, at));
  return { keep: [], summary: types.every((type) => type !== undefined) ? typeChoiceMessage(types) : 'is not included in the list' };
}

/**
 * With `allErrors`, a failed `anyOf` reports every alternative's errors; keeps
 * only those `verdict` says stand. Outer alternatives are resolved first, so
 * a nested `anyOf` of a dropped alternative is dropped with it. `if` errors
 * (the `then` or `else` errors say it) and `propertyNames` wrappers (the
 * inner error names the property) go too.
 */
function resolveAlternatives(errors: readonly ErrorObject[]): { errors: ErrorObject[]; summaries: Summary[] } {
  let kept = errors.filter((error) => error.keyword !== 'if' && error.keyword !== 'propertyNames');
  const summaries: Summary[] = [];
  const anyOfs = kept.filter((error) => error.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const anyOf of anyOfs) {
    if (!kept.includes(anyOf)) continue;
    const at = anyOf.instancePath;
    const alternativePrefix = `${anyOf.schemaPath}/`;
    const schemaPrefix = anyOf.schemaPath.slice(0, -'anyOf'.length);
    const alternatives = new Map<string, ErrorObject[]>();
    let explainedBySiblings = false;
    for (const error of kept) {
      if (error === anyOf || !isAtOrUnder(error.instancePath, at)) continue;
      if (error.schemaPath.startsWith(alternativePrefix)) {
        const index = error.schemaPath.slice(alternativePrefix.length).split('/')[0] ?? '';
        alternatives.set(index, [...(alternatives.get(index) ?? []), error]);
      } else if (error.schemaPath.startsWith(schemaPrefix)) {
        explainedBySiblings = true;
      }
    }
    const lists = [...alternatives.values()];
    const { keep, summary } = verdict(at, lists, explainedBySiblings);
    if (summary !== undefined) summaries.push({ instancePath: at, message: summary });
    const dropped = new Set([anyOf, ...lists.flat()]);
    for (const error of keep) dropped.delete(error);
    kept = kept.filter((error) => !dropped.has(error));
  }
  return { errors: kept, summaries };
}

function decodeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The dotted path of `segments` in `data` (object keys after a dot, array indexes in brackets) and the value there. */
function pathIn(data: unknown, segments: readonly string[]): { path: string; value: unknown } {
  let path = '';
  let value: unknown = data;
  for (const segment of segments) {
    path += Array.isArray(value) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
    value = typeof value === 'object' && value !== null && Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return { path, value };
}

function keyFor(prefix: string, path: string): string {
  if (prefix === '') return path === '' ? 'base' : path;
  return path === '' ? prefix : path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

/**
 * Turns ajv errors into the `details` map of spec 7 keyed by the full path of
 * the value at fault (`rule.evaluation.kind`, `rule.filter.attributes.status_code`,
 * `rule.filter.name[1]`), where `toValidationDetails` keys by top-level field.
 * `prefix` names `data` itself (`rule`); `arrayOfStrings` lists paths relative
 * to it whose type error reads "must be an array of strings".
 */
export function toPathValidationDetails(
  errors: readonly ErrorObject[],
  data: unknown,
  options: { prefix?: string; arrayOfStrings?: ReadonlySet<string> } = {},
): ValidationDetails {
  const prefix = options.prefix ?? '';
  const arrayOfStrings = options.arrayOfStrings ?? new Set<string>();
  const details: ValidationDetails = {};
  const add = (key: string, message: string) => {
    const list = (details[key] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const segmentsOf = (instancePath: string) => instancePath.split('/').slice(1).map(decodeSegment);
  const { errors: kept, summaries } = resolveAlternatives(errors);
  // A value of the wrong type fails its other keywords too (`enum`): the type says it all.
  const wrongType = new Set(kept.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  for (const error of kept) {
    if (error.keyword !== 'type' && wrongType.has(error.instancePath)) continue;
    const segments = segmentsOf(error.instancePath);
    if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
    if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
    if (error.propertyName !== undefined) segments.push(error.propertyName);
    const { path, value } = pathIn(data, segments);
    add(keyFor(prefix, path), messageFor(error, path, value, arrayOfStrings));
  }
  for (const summary of summaries) add(keyFor(prefix, pathIn(data, segmentsOf(summary.instancePath)).path), summary.message);
  return details;
}
