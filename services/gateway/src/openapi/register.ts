import type { FastifyInstance, FastifyRequest } from 'fastify';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  API_RESOURCE_SCHEMAS,
  PulseboardError,
  errorEnvelopeSchema,
  ingestErrorSchema,
  validationDetailsSchema,
  webhookBatchSchema,
  webhookEventSchema,
} from '@pulseboard/contracts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

const BEARER = (what: string) => ({ type: 'http' as const, scheme: 'bearer', description: what });

/** Names `$id` schemas in components.schemas after their title, else their `$id` (`create-tile.json` → `CreateTile`). */
function componentName(json: { title?: unknown; $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number): string {
  if (typeof json.title === 'string') return json.title;
  const file = typeof json.$id === 'string' ? /([a-z0-9-]+)\.json$/.exec(json.$id)?.[1] : undefined;
  return file === undefined ? `def-${i}` : file.replace(/(^|-)([a-z0-9])/g, (_m, _dash, c: string) => c.toUpperCase());
}

const probeBody = { type: 'object', properties: { status: { type: 'string' }, checks: { type: 'object', additionalProperties: { type: 'boolean' } } } };
/** The operator routes every service shares (@pulseboard/config registerOpsRoutes), described here. */
const OPS_DOCS: Record<string, object> = {
  '/healthz': {
    tags: ['system'],
    summary: 'Liveness probe (no credential)',
    security: [],
    response: { 200: { description: 'The process answers', ...probeBody } },
  },
  '/readyz': {
    tags: ['system'],
    summary: 'Readiness probe (no credential): the producer connected and Redis reachable; Postgres reported, not required',
    security: [],
    response: {
      200: { description: 'Ready', ...probeBody },
      503: {
        description: 'Not ready: the error envelope naming the failing checks',
        headers: { 'retry-after': { type: 'integer' } },
        $ref: errorEnvelopeSchema.$id,
      },
    },
  },
  '/metrics': {
    tags: ['system'],
    summary: 'Prometheus metrics (no credential)',
    security: [],
    response: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } } },
  },
};

/** `GET /api/v1/tiles/:id` → `getApiV1TilesId`: every operation gets a stable id (clients name their methods after it). */
function operationId(method: string, url: string): string {
  const words = url.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The contracts' own ajv keywords (`storableText`, `boundedJson`,
 * `maxJsonBytes`) are not OpenAPI's: in the document they become the
 * extensions `x-pulseboard-storable-text`, `x-pulseboard-max-depth` and
 * `x-pulseboard-max-bytes` (the field's description says each in words).
 */
const EXTENSIONS: Record<string, string> = {
  storableText: 'x-pulseboard-storable-text',
  boundedJson: 'x-pulseboard-max-depth',
  maxJsonBytes: 'x-pulseboard-max-bytes',
};

function asExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asExtensions);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = EXTENSIONS[key] ?? key;
    out[name] = asExtensions(inner);
  }
  return out;
}

/**
 * Unknown query parameters of a route that documents its query are a 400
 * naming them (a misspelt filter would otherwise return the unfiltered list).
 */
async function refuseUnknownQuery(request: FastifyRequest): Promise<void> {
  const doc = request.routeOptions.config.openapi?.querystring;
  if (doc === undefined) return;
  const patterns = Object.keys(doc.patternProperties ?? {}).map((p) => new RegExp(p, 'u'));
  const unknown = Object.keys(request.query as object).filter((name) => !Object.hasOwn(doc.properties, name) && !patterns.some((p) => p.test(name)));
  if (unknown.length === 0) return;
  const known = Object.keys(doc.properties).join(', ');
  throw new PulseboardError('validation_error', {
    message: 'Invalid query parameters',
    details: Object.fromEntries(unknown.map((name) => [name, [`is not a known parameter (known: ${known})`]])),
  });
}

/**
 * The OpenAPI 3.1 document of every route, generated from the routes' own
 * schemas (@fastify/swagger's onRoute hook: register this before any route),
 * served at /api/v1/openapi.json, with the interactive page at /docs whose
 * assets the gateway serves itself. Response bodies are serialised with
 * JSON.stringify (buildJsonSerializer): the schemas document them, they do not reshape them (a field
 * the schema lacks is caught by the tests' OpenAPI check, not silently dropped).
 */
/**
 * For Fastify's `schemaController.compilersFactory`: response schemas are
 * documentation, bodies are serialised as they are (set at construction:
 * `setSerializerCompiler` does not reach plugins that add schemas of their own).
 */
export function buildJsonSerializer() {
  return () => (payload: unknown) => JSON.stringify(payload);
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of [validationDetailsSchema, errorEnvelopeSchema, ingestErrorSchema, webhookEventSchema, webhookBatchSchema, ...API_RESOURCE_SCHEMAS])
    app.addSchema(schema);
  app.addHook('preValidation', refuseUnknownQuery);
  const options: SwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pulseboard API',
        version: '1.0.0',
        description:
          'Send events (`/ingest`, `/api/v1/webhooks`), read them back, manage projects, tiles and notification services, and administer accounts. ' +
          'Errors of `/ingest` have the shape `{status: "error", code, message, ...}`; every other route answers `{error: {code, message, details?}}`. ' +
          'Kafka topics and the broadcast WebSocket protocol are described in docs/asyncapi.json (AsyncAPI 3).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: 'http://localhost:8080', description: 'a local gateway (bash deploy/up.sh)' }],
      components: {
        securitySchemes: {
          projectKey: BEARER("A project's API key (`evk_…`): sends events and reads that project."),
          userToken: BEARER("A user's token (`evu_…`): reads and manages every project of the user's account."),
          adminToken: BEARER("The installation's ADMIN_TOKEN: the admin API only."),
        },
      },
      tags: [
        { name: 'ingest', description: 'Sending events' },
        { name: 'events', description: 'Reading stored events' },
        { name: 'projects', description: 'Projects and their API keys' },
        { name: 'tiles', description: 'Dashboard tiles and their state' },
        { name: 'notifications', description: 'Notification services (user token only)' },
        { name: 'tokens', description: "The calling user's own tokens (user token only)" },
        { name: 'limits', description: 'Rate limits and quota' },
        { name: 'system', description: 'Health, readiness, metrics' },
        { name: 'admin', description: 'Accounts, users and projects of the installation (admin token)' },
      ],
    },
    refResolver: { buildLocalReference: componentName },
    // Query, path and header docs declared in the route's config (checked by handlers, not by ajv) join the route's schema here.
    transform: ({ schema: declared, url, route }) => {
      const schema = { operationId: operationId(String(route.method), url), ...(OPS_DOCS[url] ?? {}), ...declared };
      const docs = (route.config as { openapi?: { querystring?: object; params?: object; headers?: object; body?: object } } | undefined)?.openapi;
      if (docs === undefined) return { schema, url };
      const { querystring, params, headers, body } = docs;
      const { patternProperties: _, ...documentable } = (querystring ?? {}) as { patternProperties?: unknown };
      const query = querystring === undefined ? {} : { querystring: documentable };
      return {
        schema: {
          ...schema,
          ...query,
          ...(params === undefined ? {} : { params }),
          ...(headers === undefined ? {} : { headers }),
          ...(body === undefined ? {} : { body }),
        },
        url,
      };
    },
    transformObject: (documents) => asExtensions((documents as { openapiObject: object }).openapiObject) as never,
  };
  await app.register(swagger, options);
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: OPENAPI_PATH, validatorUrl: null, deepLinking: true },
    staticCSP: true,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
