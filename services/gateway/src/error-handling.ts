import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toValidationDetails } from '@pulseboard/contracts';
import { apiError, sendError, type ApiError, type ErrorShape } from './replies.ts';

export function errorShapeOf(request: FastifyRequest): ErrorShape {
  return (request.routeOptions.config as { errorShape?: ErrorShape } | undefined)?.errorShape ?? 'envelope';
}

// Connection-level failures of Redis (ioredis) and Postgres (pg): the request may well succeed
// later, so they are 503 with Retry-After, not 500.
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P03', '08000', '08001', '08003', '08006']);
const OUTAGE_MESSAGES = new Set(['Connection is closed.', 'Command timed out', 'Connection terminated unexpectedly', 'timeout exceeded when trying to connect']);

export function isBackingServiceOutage(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  return e.name === 'MaxRetriesPerRequestError' || OUTAGE_CODES.has(String(e.code)) || OUTAGE_MESSAGES.has(String(e.message));
}

/** Maps anything thrown on the way to a handler to the documented shapes; never leaks internals. */
export function toApiError(error: FastifyError & { pulseboard?: ApiError; retryable?: boolean; status?: number }, request: FastifyRequest): ApiError {
  if (error.pulseboard !== undefined) return error.pulseboard;
  if (error.validation !== undefined) {
    const where = error.validationContext ?? 'body';
    return apiError(400, 'validation_error', `Invalid ${where} parameters`, { details: toValidationDetails(error.validation as never, (request as unknown as Record<string, unknown>)[where]) });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError(413, 'payload_too_large', 'The request body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return apiError(400, 'bad_request', 'The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return apiError(400, 'bad_request', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiError(400, 'bad_request', 'Content-Length does not match the body');
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
      return apiError(400, 'bad_request', 'The request body is not valid gzip');
  }
  if (error.code === 'kafka_message_too_large') return apiError(413, 'payload_too_large', 'The event is too large for the event log');
  if (error instanceof SyntaxError || error.statusCode === 400) return apiError(400, 'bad_request', 'The request body is not valid JSON');
  if (error.retryable === true || isBackingServiceOutage(error)) return apiError(503, 'service_unavailable', 'A backing service is unavailable, retry shortly', { headers: { 'retry-after': 1 } });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return apiError(error.statusCode, 'bad_request', error.message);
  return apiError(500, 'internal_error', 'Internal server error');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toApiError(error, request);
    if (mapped.status >= 500) request.log.error({ event: 'request_failed', req_id: request.id, err: error, url: request.url, method: request.method, status: mapped.status });
    return sendError(reply, errorShapeOf(request), mapped);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request.url.startsWith('/ingest') ? 'ingest' : 'envelope', apiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
