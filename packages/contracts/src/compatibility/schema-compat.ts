type Schema = Record<string, unknown>;

/**
 * What in `next` breaks a consumer or producer written against `previous`
 * (JSON Schemas of a topic's value). Messages of both versions share the log,
 * and every consumer validates what it reads, so a change is breaking in
 * either direction:
 * - a field removed or renamed;
 * - a type narrowed (messages already in the topic fail the new decoder) or
 *   widened (an existing reader meets a type it never handled);
 * - an enum or const that lost or gained values, a bound, pattern or format changed;
 * - a new required field (earlier messages lack it), or a field no longer required;
 * - additional fields refused where they were allowed.
 * Adding an optional field is compatible. Each problem names its path.
 */
export function breakingChanges(previous: unknown, next: unknown, path = '$'): string[] {
  if (!isSchema(previous) || !isSchema(next)) return [];
  const problems: string[] = [];
  const before = typesOf(previous);
  const after = typesOf(next);
  if (before !== undefined && after !== undefined) {
    const lost = [...before].filter((t) => !after.has(t) && !(t === 'integer' && after.has('number')));
    const gained = [...after].filter((t) => !before.has(t) && !(t === 'integer' && before.has('number')));
    if (lost.length > 0) problems.push(`${path}: type narrowed (no longer ${lost.join(', ')})`);
    if (gained.length > 0) problems.push(`${path}: type widened (now also ${gained.join(', ')})`);
  }
  const enumBefore = enumOf(previous);
  const enumAfter = enumOf(next);
  if (enumBefore !== undefined && enumAfter === undefined) problems.push(`${path}: enum removed`);
  if (enumBefore === undefined && enumAfter !== undefined) problems.push(`${path}: values restricted to ${JSON.stringify(enumAfter)}`);
  if (enumBefore !== undefined && enumAfter !== undefined) {
    const lost = enumBefore.filter((v) => !enumAfter.some((w) => JSON.stringify(w) === JSON.stringify(v)));
    const gained = enumAfter.filter((v) => !enumBefore.some((w) => JSON.stringify(w) === JSON.stringify(v)));
    if (lost.length > 0) problems.push(`${path}: enum lost ${JSON.stringify(lost)}`);
    if (gained.length > 0) problems.push(`${path}: enum gained ${JSON.stringify(gained)}`);
  }
  for (const bound of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'format'] as const) {
    if (previous[bound] !== next[bound]) problems.push(`${path}: ${bound} changed from ${JSON.stringify(previous[bound])} to ${JSON.stringify(next[bound])}`);
  }

  const propsBefore = (previous.properties ?? {}) as Record<string, unknown>;
  const propsAfter = (next.properties ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(propsBefore)) {
    if (!Object.hasOwn(propsAfter, name)) problems.push(`${path}.${name}: field removed (or renamed)`);
    else problems.push(...breakingChanges(propsBefore[name], propsAfter[name], `${path}.${name}`));
  }
  const requiredBefore = new Set((previous.required ?? []) as string[]);
  const requiredAfter = new Set((next.required ?? []) as string[]);
  for (const name of requiredAfter) if (!requiredBefore.has(name)) problems.push(`${path}.${name}: new required field`);
  for (const name of requiredBefore)
    if (!requiredAfter.has(name) && Object.hasOwn(propsAfter, name)) problems.push(`${path}.${name}: no longer required (readers rely on it)`);
  if (previous.additionalProperties !== false && next.additionalProperties === false) problems.push(`${path}: additional fields now refused`);

  if (previous.items !== undefined || next.items !== undefined) problems.push(...breakingChanges(previous.items, next.items, `${path}[]`));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const a = previous[key] as unknown[] | undefined;
    const b = next[key] as unknown[] | undefined;
    if (a === undefined && b === undefined) continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${path}: ${key} changed`);
  }
  return problems;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON types a schema allows, from `type` or an `anyOf` of typed branches; undefined when it does not say. */
function typesOf(schema: Schema): Set<string> | undefined {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  return undefined;
}

function enumOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  if (Object.hasOwn(schema, 'const')) return [schema.const];
  return undefined;
}
