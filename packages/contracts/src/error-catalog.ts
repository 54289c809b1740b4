import type { ValidationDetails } from './validation.ts';

/**
 * One entry of the error catalog: how an error is answered and classified.
 * - `status`: the HTTP status it is answered with.
 * - `retryable`: whether trying the same thing later may succeed (callers
 *   classify by this property, never by class).
 * - `message`: the default message. Errors of public codes may carry a more
 *   specific one; internal ones (`answeredAs`) always show this one, since their
 *   own text is for the logs.
 * - `answeredAs`: set on internal codes (raised by packages, never shown):
 *   the public code a client sees instead.
 * - `retryAfterSeconds`: the default `Retry-After` of the answer.
 */
export interface ErrorEntry {
  readonly status: number;
  readonly retryable: boolean;
  readonly message: string;
  readonly answeredAs?: string;
  readonly retryAfterSeconds?: number;
}

/**
 * Every error code a Pulseboard service answers or raises, declared once (the
 * way fastify declares its FST_ERR_* codes). The first group is what clients
 * see (CONTRACT.md, spec 7); the second is raised inside services and packages
 * and answered as the public code its entry names.
 */
export const ERROR_CATALOG = {
  bad_request: { status: 400, retryable: false, message: 'The request body is not valid JSON' },
  validation_error: { status: 400, retryable: false, message: 'Validation failed' },
  authentication_required: { status: 401, retryable: false, message: 'An API key is required: send it as "Authorization: Bearer <API_KEY>"' },
  invalid_api_key: { status: 401, retryable: false, message: 'The API key is invalid' },
  invalid_signature: { status: 401, retryable: false, message: "The delivery's signature does not match the project's integration secret" },
  invalid_admin_token: { status: 401, retryable: false, message: 'The admin token is invalid' },
  quota_exceeded: { status: 402, retryable: false, message: 'Monthly quota exceeded' },
  forbidden: { status: 403, retryable: false, message: 'This credential may not do that' },
  user_token_required: { status: 403, retryable: false, message: 'This action needs a user token, not a project API key' },
  api_key_required: { status: 403, retryable: false, message: "Events are sent with the project's API key; a user token cannot send events" },
  not_found: { status: 404, retryable: false, message: 'Resource not found' },
  project_not_found: { status: 404, retryable: false, message: 'No project exists for this key' },
  idempotency_conflict: { status: 409, retryable: true, message: 'A request with this Idempotency-Key is still in progress', retryAfterSeconds: 1 },
  payload_too_large: { status: 413, retryable: false, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, retryable: false, message: 'Content-Type must be application/json' },
  idempotency_key_reused: { status: 422, retryable: false, message: 'This Idempotency-Key was used with a different request body' },
  // A documented cap (tiles per project, notification services per account) is reached.
  resource_limit_reached: { status: 409, retryable: false, message: 'A documented cap on this kind of resource is reached' },
  rate_limit_exceeded: { status: 429, retryable: true, message: 'Rate limit exceeded' },
  internal_error: { status: 500, retryable: false, message: 'Internal server error' },
  service_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', retryAfterSeconds: 1 },

  kafka_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  producer_stopped: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  kafka_message_too_large: { status: 413, retryable: false, message: 'The event is too large for the event log', answeredAs: 'payload_too_large' },
  kafka_rejected: { status: 500, retryable: false, message: 'Internal server error', answeredAs: 'internal_error' },
  limiter_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  idempotency_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  event_ids_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  database_unavailable: { status: 503, retryable: true, message: 'A backing service is unavailable, retry shortly', answeredAs: 'service_unavailable' },
  // The database refused a consumed message's data for good (the store dead-letters it).
  rejected_by_database: { status: 500, retryable: false, message: 'Internal server error', answeredAs: 'internal_error' },
  invalid_configuration: { status: 500, retryable: false, message: 'Internal server error', answeredAs: 'internal_error' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Codes a client may read in an answer. */
export type PublicErrorCode = { [C in ErrorCode]: (typeof ERROR_CATALOG)[C] extends { answeredAs: string } ? never : C }[ErrorCode];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOG, code);
}

export interface PulseboardErrorOptions {
  /** Replaces the catalog's default message. */
  message?: string;
  /** Field → messages, for `validation_error` (spec 7). */
  details?: ValidationDetails;
  /** Extra top-level fields of the ingest shape (`rate_limit`, `quota_used`, ...). */
  extra?: Record<string, unknown>;
  /** Headers of the answer (a computed `Retry-After`, say). */
  headers?: Record<string, string | number>;
  cause?: unknown;
}

/**
 * The one error class: a catalog code plus what this occurrence adds. Status
 * and retryability come from the catalog, so they cannot disagree with it.
 *
 * Like fastify's own errors (`@fastify/error`), it is not built by Error's
 * constructor: refusals such as 429 and 402 are part of normal operation under
 * load, and capturing a stack trace costs several times the rest of building
 * one. Only server-side failures (status 500 and up) capture their stack, for
 * the log. The prototype chain still runs through Error.prototype, so
 * `instanceof Error` holds and loggers and fastify treat it as an error.
 */
export class PulseboardError {
  declare readonly name: string;
  declare message: string;
  declare stack?: string;
  declare readonly cause?: unknown;
  declare readonly code: ErrorCode;
  declare readonly status: number;
  declare readonly retryable: boolean;
  declare readonly details?: ValidationDetails;
  declare readonly extra?: Record<string, unknown>;
  declare readonly headers?: Record<string, string | number>;

  constructor(code: ErrorCode, options: PulseboardErrorOptions = {}) {
    const entry: ErrorEntry = ERROR_CATALOG[code];
    this.code = code;
    this.status = entry.status;
    this.retryable = entry.retryable;
    this.message = options.message ?? entry.message;
    if (options.details !== undefined) this.details = options.details;
    if (options.extra !== undefined) this.extra = options.extra;
    if (options.headers !== undefined) this.headers = options.headers;
    if (options.cause !== undefined) this.cause = options.cause;
    if (entry.status >= 500) Error.captureStackTrace(this, PulseboardError);
  }
}
Object.setPrototypeOf(PulseboardError.prototype, Error.prototype);
Object.defineProperty(PulseboardError.prototype, 'name', { value: 'PulseboardError', enumerable: false, writable: true, configurable: true });

/** Whether trying again later may succeed, by property: works for any error that says so. */
export function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/**
 * How an error is answered: internal codes turn into the public code their
 * entry names, with the catalog's message (their own text stays in the logs).
 */
export function publicFace(error: Pick<PulseboardError, 'code' | 'message'>): {
  code: PublicErrorCode;
  message: string;
  retryAfterSeconds: number | undefined;
} {
  const entry: ErrorEntry = ERROR_CATALOG[error.code];
  if (entry.answeredAs === undefined) return { code: error.code as PublicErrorCode, message: error.message, retryAfterSeconds: entry.retryAfterSeconds };
  const shown: ErrorEntry = ERROR_CATALOG[entry.answeredAs as ErrorCode];
  return { code: entry.answeredAs as PublicErrorCode, message: entry.message, retryAfterSeconds: shown.retryAfterSeconds };
}
