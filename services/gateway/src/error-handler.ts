import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { ERROR_CATALOG, isErrorCode, isRetryable, publicFace, PulseboardError, toPathValidationDetails } from '@pulseboard/contracts';

/** Which of the two error shapes of spec 7 a route answers with. */
export type ErrorShape = 'ingest' | 'envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `ingest`: `{status:"error", code, message, details?, ...}`; otherwise the envelope `{error:{code, message, details?}}`. */
    errorShape?: ErrorShape;
    /** Counts the route's refusals in pulseboard_gateway_requests_rejected_total under this `endpoint` label. */
    rejectionsEndpoint?: string;
  }
}

// Connection-level failures of Redis (ioredis) and Postgres (pg): the request may well succeed
// later, so they are 503 with Retry-After, not 500.
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P03', '08000', '08001', '08003', '08006']);
const OUTAGE_MESSAGES = new Set([
  'Connection is closed.',
  'Command timed out',
  'Connection terminated unexpectedly',
  'timeout exceeded when trying to connect',
]);

function isBackingServiceOutage(error: { name?: unknown; code?: unknown; message?: unknown }): boolean {
  return error.name === 'MaxRetriesPerRequestError' || OUTAGE_CODES.has(String(error.code)) || OUTAGE_MESSAGES.has(String(error.message));
}

// Fastify's own refusals while reading a body, and zlib's for a broken gzip body.
const BODY_ERRORS: Record<string, () => PulseboardError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new PulseboardError('unsupported_media_type'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new PulseboardError('payload_too_large'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new PulseboardError('bad_request', { message: 'The request body is empty; send a JSON object' }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new PulseboardError('bad_request'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new PulseboardError('bad_request', { message: 'Content-Length does not match the body' }),
  Z_DATA_ERROR: () => new PulseboardError('bad_request', { message: 'The request body is not valid gzip' }),
  Z_BUF_ERROR: () => new PulseboardError('bad_request', { message: 'The request body is not valid gzip' }),
};

/**
 * Anything thrown on the way to or in a handler, as a catalog error: errors
 * with a catalog code are taken as they are (by their code, not their class);
 * the rest are mapped, and anything unexpected is `internal_error`, which
 * shows no internals.
 */
function toPulseboardError(error: FastifyError, request: FastifyRequest): PulseboardError {
  if (isErrorCode(error.code)) return error as PulseboardError;
  if (error.validation !== undefined) {
    const where = error.validationContext ?? 'body';
    return new PulseboardError('validation_error', {
      message: `Invalid ${where} parameters`,
      details: toPathValidationDetails(error.validation as never, (request as unknown as Record<string, unknown>)[where]),
    });
  }
  const bodyError = Object.hasOwn(BODY_ERRORS, error.code) ? BODY_ERRORS[error.code] : undefined;
  if (bodyError !== undefined) return bodyError();
  if (error instanceof SyntaxError || error.statusCode === 400) return new PulseboardError('bad_request');
  if (isRetryable(error) || isBackingServiceOutage(error)) return new PulseboardError('service_unavailable', { cause: error });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new PulseboardError('bad_request', { message: error.message });
  return new PulseboardError('internal_error', { cause: error });
}

/**
 * Renders a catalog error in the route's shape (spec 7, CONTRACT Events):
 * `{status:"error", code, message, details?, ...extra}` on /ingest (the extra
 * fields carry the numbers of a 429 or 402), `{error:{code, message, details?}}`
 * elsewhere. Internal codes are shown as the public code their entry names.
 */
function sendError(reply: FastifyReply, shape: ErrorShape, error: PulseboardError): FastifyReply {
  const face = publicFace(error);
  if (error.headers !== undefined) reply.headers(error.headers);
  if (face.retryAfterSeconds !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', face.retryAfterSeconds);
  reply.code(ERROR_CATALOG[error.code].status);
  if (shape === 'ingest') {
    return reply.send({
      status: 'error',
      code: face.code,
      message: face.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...error.extra,
    });
  }
  return reply.send({ error: { code: face.code, message: face.message, ...(error.details === undefined ? {} : { details: error.details }) } });
}

/** The one error handler: every route throws catalog errors (or anything else) and this answers them. */
export function registerErrorHandler(app: FastifyInstance, deps: { rejected: Counter<'endpoint' | 'reason'> }): void {
  app.setErrorHandler((thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = toPulseboardError(thrown, request);
    const config = request.routeOptions.config;
    if (config.rejectionsEndpoint !== undefined) deps.rejected.inc({ endpoint: config.rejectionsEndpoint, reason: error.code });
    const status = ERROR_CATALOG[error.code].status;
    if (status === 503) {
      // A dependency is away (every request says so during an outage): the reason, without a stack each time.
      const cause = (error.cause ?? thrown) as { message?: unknown; code?: unknown };
      request.log.warn({
        event: 'request_failed',
        req_id: request.id,
        code: error.code,
        reason: String(cause.message ?? error.message),
        reason_code: cause.code,
        url: request.url,
        method: request.method,
        status,
      });
    } else if (status >= 500) request.log.error({ event: 'request_failed', req_id: request.id, err: thrown, url: request.url, method: request.method, status });
    sendError(reply, config.errorShape ?? 'envelope', error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      request.url.startsWith('/ingest') ? 'ingest' : 'envelope',
      new PulseboardError('not_found', { message: `No route ${request.method} ${request.url.split('?')[0]}` }),
    ),
  );
}

/**
 * Fastify's refusals before a route is found (a path or query that is not
 * valid percent-encoded UTF-8: FST_ERR_BAD_URL), in the documented shape
 * rather than fastify's own. For the `frameworkErrors` option.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const answer =
    status >= 500
      ? new PulseboardError('internal_error', { cause: error })
      : new PulseboardError('bad_request', { message: 'The request URL is not valid percent-encoded UTF-8' });
  if (status >= 500) request.log.error({ event: 'request_failed', req_id: request.id, err: error, method: request.method });
  sendError(reply, request.url.startsWith('/ingest') ? 'ingest' : 'envelope', answer);
}

/** 404 `not_found` for a resource the credential may not see or that does not exist: the same answer (no existence leak). */
export function notFound(what: string): PulseboardError {
  return new PulseboardError('not_found', { message: `${what} not found` });
}
