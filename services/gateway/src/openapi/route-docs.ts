import { errorEnvelopeSchema, ingestErrorSchema, listMetaSchema } from '@pulseboard/contracts';

/**
 * Building blocks of the routes' schemas: what each route declares becomes
 * its part of the OpenAPI document (docs/openapi.json), and the tests check
 * every answer against that document. Response bodies are the contracts'
 * schemas, referenced by `$id`.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Request parts documented but checked by the handler (query strings and
     * path ids arrive as text; the handlers parse them with the contract's
     * messages). A declared `querystring` also refuses unknown parameters (400).
     */
    openapi?: { querystring?: QueryDoc; params?: object; headers?: object; body?: object };
  }
}

export interface QueryDoc {
  type: 'object';
  properties: Record<string, object>;
  /** Parameter names matching these are known too (`attributes.host`). */
  patternProperties?: Record<string, object>;
  additionalProperties: false;
}

/** The security schemes of components.securitySchemes, as a route's `security`. */
export const SECURITY = {
  projectKey: [{ projectKey: [] }],
  userToken: [{ userToken: [] }],
  projectKeyOrUserToken: [{ projectKey: [] }, { userToken: [] }],
  adminToken: [{ adminToken: [] }],
  none: [],
} as const;

const ref = (schema: { $id: string }) => ({ $ref: schema.$id });

/** `{data: <schema>}`. */
export function data(schema: { $id: string } | object, description: string): object {
  return { description, type: 'object', additionalProperties: false, required: ['data'], properties: { data: '$id' in schema ? ref(schema) : schema } };
}

/** `{data: [<schema>], meta}`: a page of a list. */
export function page(schema: { $id: string }, description: string): object {
  return {
    description,
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta'],
    properties: { data: { type: 'array', items: ref(schema) }, meta: ref(listMetaSchema) },
  };
}

/** `{data: [<schema>]}`: a whole list. */
export function all(schema: { $id: string }, description: string): object {
  return { description, type: 'object', additionalProperties: false, required: ['data'], properties: { data: { type: 'array', items: ref(schema) } } };
}

export function body(schema: { $id: string }, description: string): object {
  return { description, ...ref(schema) };
}

export const noContent = { 204: { description: 'Done; no body', type: 'null' } };

const ERROR_TEXT: Record<number, string> = {
  400: '`validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8)',
  401: '`authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token`',
  402: '`quota_exceeded`: the monthly quota is spent',
  403: '`forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project',
  404: '`not_found` / `project_not_found`: no such resource, or not one this credential may see',
  409: "`idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens)",
  413: '`payload_too_large`',
  415: '`unsupported_media_type`: the body must be application/json',
  422: '`idempotency_key_reused`: this Idempotency-Key was used with a different body',
  429: '`rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After)',
  500: '`internal_error`',
  503: '`service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After',
};

const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'Seconds to wait before retrying' } };
const RETRYING = new Set([409, 429, 503]);

/** The six rate-limit headers of spec 4.2 (every webhooks answer after the limit check). */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { type: 'integer', description: "The project's hourly request limit" },
  'x-ratelimit-remaining': { type: 'integer', description: 'Requests left in the current UTC hour' },
  'x-ratelimit-reset': { type: 'integer', description: 'Unix epoch seconds when the hour ends' },
  'x-burst-limit': { type: 'integer', description: 'Events allowed per UTC minute' },
  'x-burst-remaining': { type: 'integer', description: 'Events left in the current minute' },
  'x-burst-reset': { type: 'integer', description: 'Unix epoch seconds when the minute ends' },
} as const;

/** On an answer replayed for a repeated Idempotency-Key. */
export const REPLAYED_HEADER = {
  'idempotent-replayed': { type: 'string', enum: ['true'], description: 'This is the stored answer of an earlier request with the same Idempotency-Key' },
} as const;

/**
 * Error responses in the route's shape (`ingest` on /ingest, the envelope
 * elsewhere). 400, 413, 415 and 500 are always among them: any route refuses
 * a URL that is not valid percent-encoded UTF-8, or a path or query holding
 * NUL or an unpaired surrogate (storable-input.ts), with 400, and a body it is
 * sent, even one it does not read, of another type (415) or too large (413).
 */
export function errors(shape: 'ingest' | 'envelope', statuses: number[], headers: Record<string, object> = {}): Record<number, object> {
  const schema = shape === 'ingest' ? ingestErrorSchema : errorEnvelopeSchema;
  const out: Record<number, object> = {};
  for (const status of [...new Set([400, 413, 415, ...statuses, 500])].sort()) {
    const own = { ...headers, ...(RETRYING.has(status) ? RETRY_AFTER : {}) };
    out[status] = { description: ERROR_TEXT[status] ?? 'Error', ...(Object.keys(own).length > 0 ? { headers: own } : {}), ...ref(schema) };
  }
  return out;
}

/** Statuses every authenticated API route may answer (bad credential, too many failed authentications from the address, backing service down). */
export const AUTHENTICATED = [401, 429, 503];

const positive = { type: 'integer', minimum: 1 } as const;

/** `page` and `per_page` (CONTRACT Lists): what every list takes. */
export function listQuery(extra: Record<string, object> = {}, patternProperties?: Record<string, object>): QueryDoc {
  return {
    type: 'object',
    properties: {
      page: { ...positive, default: 1, description: 'Page number, from 1' },
      per_page: { ...positive, default: 25, maximum: 100, description: 'Items per page (at most 100)' },
      ...extra,
    },
    ...(patternProperties === undefined ? {} : { patternProperties }),
    additionalProperties: false,
  };
}

/** A numeric `:id` in the path. */
export const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, description: 'The numeric id' } } } as const;

/** Request headers of the sending routes. */
export const IDEMPOTENCY_HEADERS = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'The same key with the same body within IDEMPOTENCY_TTL_SECONDS gets the stored answer; nothing is stored twice',
    },
  },
} as const;

/** The admin API's tag and scheme. */
export const ADMIN = { tags: ['admin'], security: SECURITY.adminToken } as const;
/** Admin guard refusals (404 also: the admin API is disabled without ADMIN_TOKEN), a missing resource, Postgres down. */
export const ADMIN_ERRORS = [401, 403, 404, 429, 503];
export const ADMIN_BODY_ERRORS = [400, 413, 415, ...ADMIN_ERRORS];
/** What a route with a JSON body adds (409: a per-account or per-project cap reached). */
export const BODY_ERRORS = [400, 409, 413, 415];
