import type { FastifyReply } from 'fastify';
import type { Counter } from 'prom-client';
import type { ValidationDetails } from '@pulseboard/contracts';

/** Which of the two error shapes of spec 7 a route answers with. */
export type ErrorShape = 'ingest' | 'envelope';

export interface ApiError {
  status: number;
  code: string;
  message: string;
  details?: ValidationDetails;
  /** Extra top-level fields of the ingest shape (rate_limit, quota_used, ...). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string | number>;
}

export function apiError(status: number, code: string, message: string, more: Partial<ApiError> = {}): ApiError {
  return { status, code, message, ...more };
}

/** Renders an error in the route's shape: `{status:"error", message, ...}` on /ingest, `{error:{code, message, details?}}` elsewhere. */
export function sendError(reply: FastifyReply, shape: ErrorShape, error: ApiError): FastifyReply {
  if (error.headers !== undefined) reply.headers(error.headers);
  reply.code(error.status);
  if (shape === 'ingest') {
    return reply.send({
      status: 'error',
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.extra ?? {}),
    });
  }
  return reply.send({
    error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
  });
}

export const errors = {
  authenticationRequired: () => apiError(401, 'authentication_required', 'An API key is required: send it as "Authorization: Bearer <API_KEY>"'),
  invalidApiKey: () => apiError(401, 'invalid_api_key', 'The API key is invalid'),
  projectNotFound: () => apiError(404, 'project_not_found', 'No project exists for this key'),
  notFound: (what = 'Resource') => apiError(404, 'not_found', `${what} not found`),
  forbidden: (message: string) => apiError(403, 'forbidden', message),
  validation: (details: ValidationDetails, message = 'Validation failed') => apiError(400, 'validation_error', message, { details }),
  unavailable: (message = 'The service is temporarily unavailable, retry shortly') =>
    apiError(503, 'service_unavailable', message, { headers: { 'retry-after': 1 } }),
};

/** The `fail` of an ingest endpoint: counts the refusal by its code, then answers in the endpoint's shape. */
export function countedFailure(rejected: Counter<'endpoint' | 'reason'>, endpoint: string, shape: ErrorShape): (reply: FastifyReply, error: ApiError) => FastifyReply {
  return (reply, error) => {
    rejected.inc({ endpoint, reason: error.code });
    return sendError(reply, shape, error);
  };
}
