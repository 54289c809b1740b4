import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks an HTTP exchange with the gateway against the OpenAPI document
 * (docs/openapi.json, which a unit test keeps equal to what the routes
 * generate). `request()` runs it on every call to `/ingest` and `/api/v1/*`,
 * so every integration and e2e test of the API checks the document too:
 * - an answer whose status, header (beyond HTTP's own) or body field the
 *   document does not describe fails the test;
 * - a request the document says is invalid (body against its schema, unknown
 *   query parameters, an undocumented route) must be refused (4xx).
 */
export const OPENAPI_DOCUMENT = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

/** Headers of HTTP itself (and of fastify's transport), not of the API. */
const HTTP_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'content-encoding',
  'cache-control',
  'etag',
  'last-modified',
  'accept-ranges',
  'x-content-type-options',
]);
const DOC_ID = 'https://pulseboard.dev/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, { schema?: object }>; content?: Record<string, unknown> }>;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  operations: Record<string, Operation>;
}

interface Checker {
  routes: Route[];
  validator(pointer: string[]): ValidateFunction;
}

let fromFile: Checker | undefined;

function pointerOf(segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
}

function load(): Checker {
  fromFile ??= compile(JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as object);
  return fromFile;
}

function compile(raw: object): Checker {
  const document = raw as { paths: Record<string, Record<string, Operation>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('iso-date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  ajv.addSchema({ ...document, $id: DOC_ID });
  const cache = new Map<string, ValidateFunction>();
  const routes = Object.entries(document.paths)
    .map(([template, ops]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`),
      params: (template.match(/\{/g) ?? []).length,
      operations: Object.fromEntries(Object.entries(ops).filter(([m]) => METHODS.includes(m))),
    }))
    // A literal segment wins over a parameter (`/tiles/state` before `/tiles/{id}`).
    .sort((a, b) => a.params - b.params);
  return {
    routes,
    validator(segments) {
      const ref = `${DOC_ID}#/${pointerOf(segments)}`;
      let validate = cache.get(ref);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: ref });
        cache.set(ref, validate);
      }
      return validate;
    },
  };
}

export interface HttpExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The request body as sent (text), if any. */
  requestBody: string | Uint8Array | undefined;
  status: number;
  responseHeaders: Headers;
  /** The response body as received (text). */
  responseText: string;
}

/** Whether `request()` checks this URL: the gateway's API, except the document itself. */
export function isDocumentedApi(url: string): boolean {
  const path = new URL(url).pathname;
  return (path === '/ingest' || path.startsWith('/api/v1/')) && path !== '/api/v1/openapi.json';
}

function fail(exchange: HttpExchange, problem: string): never {
  const path = new URL(exchange.url).pathname;
  throw new Error(
    `OpenAPI check: ${exchange.method} ${path} answered ${exchange.status}: ${problem}. ` +
      "Describe it in the route's schema (schema.response, config.openapi) and run `pnpm openapi:write`; docs/openapi.json is what the check reads.",
  );
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Why the document says the request is not valid, or undefined. */
function requestProblem(checker: Checker, exchange: HttpExchange, route: Route, method: string, operation: Operation): string | undefined {
  const url = new URL(exchange.url);
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  if (query.length > 0) {
    const unknown = [...new Set(url.searchParams.keys())].filter((name) => !query.includes(name));
    if (unknown.length > 0) return `unknown query parameter(s) ${unknown.join(', ')}`;
  }
  const schema = operation.requestBody?.content?.['application/json'];
  const body = exchange.requestBody;
  if (schema === undefined || body === undefined || typeof body !== 'string') return undefined;
  const contentType = exchange.requestHeaders['content-type'] ?? '';
  if (!contentType.startsWith('application/json') || exchange.requestHeaders['content-encoding'] !== undefined) return undefined;
  const parsed = parseJson(body);
  if (!parsed.ok) return 'the body is not JSON';
  const validate = checker.validator(['paths', route.template, method, 'requestBody', 'content', 'application/json', 'schema']);
  return validate(parsed.value) ? undefined : `the body does not match the request schema (${JSON.stringify(validate.errors?.slice(0, 3))})`;
}

/** Throws when the exchange is not what docs/openapi.json describes. */
export function checkAgainstOpenApi(exchange: HttpExchange): void {
  check(load(), exchange);
}

/** A check against another document (the check's own tests). */
export function openApiChecker(document: object): (exchange: HttpExchange) => void {
  const checker = compile(document);
  return (exchange) => check(checker, exchange);
}

function check(checker: Checker, exchange: HttpExchange): void {
  const path = new URL(exchange.url).pathname;
  const method = exchange.method.toLowerCase();
  const route = checker.routes.find((r) => r.pattern.test(path) && r.operations[method] !== undefined);
  if (route === undefined) {
    // A request for something the document does not describe must be refused.
    if (exchange.status >= 400 && exchange.status < 500) return;
    fail(exchange, 'no such operation in the document');
  }
  const operation = route.operations[method]!;

  const invalid = requestProblem(checker, exchange, route, method, operation);
  if (invalid !== undefined && exchange.status < 400) fail(exchange, `the request is invalid by the document (${invalid}) but was accepted`);

  const status = String(exchange.status);
  const key = [status, `${status[0]}XX`, 'default'].find((k) => operation.responses[k] !== undefined);
  if (key === undefined) fail(exchange, `status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
  const response = operation.responses[key]!;

  const documented = new Map(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]));
  exchange.responseHeaders.forEach((value, name) => {
    if (HTTP_HEADERS.has(name)) return;
    const header = documented.get(name);
    if (header === undefined) fail(exchange, `header ${name} is not documented for ${key}`);
    if (header.schema !== undefined) {
      const validate = checker.validator([
        'paths',
        route.template,
        method,
        'responses',
        key,
        'headers',
        [...Object.keys(response.headers!)].find((h) => h.toLowerCase() === name)!,
        'schema',
      ]);
      const typed = (header.schema as { type?: string }).type === 'integer' ? Number(value) : value;
      if (!validate(typed)) fail(exchange, `header ${name}: ${value} does not match its schema`);
    }
  });

  const content = response.content ?? {};
  if (exchange.responseText === '') {
    if (Object.keys(content).length > 0 && exchange.method !== 'HEAD') fail(exchange, 'the body is empty but the document describes one');
    return;
  }
  const contentType = (exchange.responseHeaders.get('content-type') ?? '').split(';')[0]!.trim();
  if (content[contentType] === undefined)
    fail(exchange, `a ${contentType || 'untyped'} body is not documented for ${key} (documented: ${Object.keys(content).join(', ') || 'none'})`);
  if (contentType !== 'application/json') return;
  const parsed = parseJson(exchange.responseText);
  if (!parsed.ok) fail(exchange, 'the body is not JSON');
  const validate = checker.validator(['paths', route.template, method, 'responses', key, 'content', 'application/json', 'schema']);
  if (!validate(parsed.value))
    fail(exchange, `the body does not match the response schema: ${JSON.stringify(validate.errors?.slice(0, 5))}; body ${exchange.responseText.slice(0, 500)}`);
}
