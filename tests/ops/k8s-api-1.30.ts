import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Validation of Kubernetes objects against the Kubernetes 1.30 API, as generated from its
 * OpenAPI document into @kubernetes/client-node 0.22.3 (the client line generated from
 * release-1.30; every generated file says so, and `openApiVersions()` reads it back).
 * From that document it takes, per type: the fields (name and JSON name), each field's type,
 * and which fields are required; and which apiVersion/kind pairs the API serves (the create
 * calls of each group's API). An object is rejected for a kind 1.30 does not serve, a field
 * 1.30 does not have (the API server's strict field validation), a value of the wrong JSON
 * type, or a missing required field. Not checked: formats and ranges the document does not
 * carry into the client (int32 bounds, quantities' syntax), which the JSON schemas of
 * kubernetes-models check (newer Kubernetes: see the chart README).
 */

const require = createRequire(import.meta.url);
const GENERATED = join(dirname(require.resolve('@kubernetes/client-node/package.json')), 'dist/gen');
export const VERSION_MARKER = 'release-1.30';

interface Field {
  json: string;
  type: string;
  required: boolean;
}

const fileOf = (type: string) => `${type[0]!.toLowerCase()}${type.slice(1)}`;

const models = new Map<string, Map<string, Field> | null>();

/** The fields of a generated type (null: not a generated model type). */
function fieldsOf(type: string): Map<string, Field> | null {
  if (models.has(type)) return models.get(type)!;
  let fields: Map<string, Field> | null = null;
  try {
    const cls = (
      require(join(GENERATED, 'model', `${fileOf(type)}.js`)) as Record<string, { attributeTypeMap?: { name: string; baseName: string; type: string }[] }>
    )[type];
    if (cls?.attributeTypeMap !== undefined) {
      // Required fields are the ones the declaration types without `?`.
      const declaration = readFileSync(join(GENERATED, 'model', `${fileOf(type)}.d.ts`), 'utf8');
      const required = new Set([...declaration.matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1]!));
      fields = new Map(cls.attributeTypeMap.map((a) => [a.baseName, { json: a.baseName, type: a.type, required: required.has(a.name) }]));
    }
  } catch {
    fields = null;
  }
  models.set(type, fields);
  return fields;
}

let served: Map<string, string> | undefined;

/** "apiVersion kind" -> generated type, for every kind the 1.30 API lets one create. */
export function servedKinds(): Map<string, string> {
  if (served !== undefined) return served;
  served = new Map();
  const apiDir = join(GENERATED, 'api');
  for (const file of readdirSync(apiDir).filter((f) => /V\d+(alpha\d+|beta\d+)?Api\.js$/.test(f))) {
    const source = readFileSync(join(apiDir, file), 'utf8');
    const path = /localVarPath = this\.basePath \+ '\/(api\/v1|apis\/[^/]+\/[^/]+)\//.exec(source)?.[1];
    if (path === undefined) continue;
    const apiVersion = path === 'api/v1' ? 'v1' : path.slice('apis/'.length);
    const declaration = readFileSync(join(apiDir, file.replace(/\.js$/, '.d.ts')), 'utf8');
    for (const m of declaration.matchAll(/^\s+create(?:Namespaced)?(\w+)\((?:namespace: string, )?body: (\w+),/gm)) {
      const [, kind, type] = m as unknown as [string, string, string];
      // Only a kind's own create call (createNamespacedPodEviction posts an Eviction to a Pod).
      if (type.endsWith(kind) && /^(\w+?)?V\d+((alpha|beta)\d+)?$/.test(type.slice(0, -kind.length))) served.set(`${apiVersion} ${kind}`, type);
    }
  }
  return served;
}

/** The OpenAPI document versions the generated files state (expected: only release-1.30). */
export function openApiVersions(): Set<string> {
  const versions = new Set<string>();
  for (const dir of ['model', 'api']) {
    for (const file of readdirSync(join(GENERATED, dir)).filter((f) => f.endsWith('.js'))) {
      const version = /The version of the OpenAPI document: (\S+)/.exec(readFileSync(join(GENERATED, dir, file), 'utf8'))?.[1];
      if (version !== undefined) versions.add(version);
    }
  }
  return versions;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function check(value: unknown, type: string, at: string, errors: string[]): void {
  if (value === null) return; // the API server takes null as absent
  const array = /^Array<(.+)>$/.exec(type);
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  const wrong = (expected: string) => errors.push(`${at}: expected ${expected}, got ${JSON.stringify(value)}`);
  if (type === 'string' || type === 'Date') {
    if (typeof value !== 'string') wrong('a string');
  } else if (type === 'number') {
    if (typeof value !== 'number') wrong('a number');
  } else if (type === 'boolean') {
    if (typeof value !== 'boolean') wrong('a boolean');
  } else if (type === 'IntOrString') {
    if (typeof value !== 'string' && !Number.isInteger(value)) wrong('an integer or a string');
  } else if (type === 'object' || type === 'any') {
    // RawExtension and free-form JSON: any value.
  } else if (array !== null) {
    if (!Array.isArray(value)) wrong('an array');
    else value.forEach((item, i) => check(item, array[1]!, `${at}[${i}]`, errors));
  } else if (map !== null) {
    if (!isPlainObject(value)) wrong('an object');
    else for (const [key, item] of Object.entries(value)) check(item, map[1]!, `${at}.${key}`, errors);
  } else {
    const fields = fieldsOf(type);
    if (fields === null) throw new Error(`no generated type ${type} (at ${at})`);
    if (!isPlainObject(value)) {
      wrong(`an object (${type})`);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      const field = fields.get(key);
      if (field === undefined) errors.push(`${at}.${key}: unknown field (not in ${type} of Kubernetes 1.30)`);
      else check(item, field.type, `${at}.${key}`, errors);
    }
    for (const field of fields.values())
      if (field.required && (value[field.json] === undefined || value[field.json] === null)) errors.push(`${at}.${field.json}: required by ${type}`);
  }
}

/** Every way an object breaks the Kubernetes 1.30 API (empty: valid). */
export function k8s130Errors(object: { apiVersion?: unknown; kind?: unknown }): string[] {
  const type = servedKinds().get(`${String(object.apiVersion)} ${String(object.kind)}`);
  if (type === undefined) return [`${String(object.apiVersion)} ${String(object.kind)}: not served by Kubernetes 1.30`];
  const errors: string[] = [];
  check(object, type, String(object.kind), errors);
  return errors;
}
