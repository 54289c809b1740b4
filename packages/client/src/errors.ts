import type { components } from './generated/openapi.ts';

/** The error codes of the contract's catalog, as the OpenAPI document lists them. */
export type ErrorCode = components['schemas']['ErrorEnvelope']['error']['code'];
/** Field → messages, on `validation_error`. */
export type ErrorDetails = components['schemas']['ValidationDetails'];

/**
 * The gateway refused a request: its status, the contract's `code`, `message`
 * and `details` (either error shape: `/ingest`'s flat one or the API's
 * `{"error": {...}}`), and the whole body for the extra fields (402's quota,
 * 429's window).
 */
export class PulseboardApiError extends Error {
  override readonly name = 'PulseboardApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unknown',
    message: string,
    readonly details: ErrorDetails | undefined,
    readonly body: unknown,
    /** From the Retry-After header, when the answer had one. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** The gateway could not be reached, or did not answer within the request timeout. */
export class PulseboardNetworkError extends Error {
  override readonly name = 'PulseboardNetworkError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** `send()` after `close()`. */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  constructor() {
    super('the client is closed');
  }
}

/** Whether a failed attempt may be sent again: network errors, 503, 429 (and 409 idempotency_conflict: the first attempt is still running). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof PulseboardNetworkError) return true;
  if (!(error instanceof PulseboardApiError)) return false;
  if (error.status === 503 || error.status === 429) return true;
  // A proxy in front of the gateway that lost it: as a network error.
  if (error.status === 502 || error.status === 504) return true;
  return error.status === 409 && error.code === 'idempotency_conflict';
}

/** Reads either error shape of the contract into a PulseboardApiError. */
export function apiError(status: number, body: unknown, retryAfterMs: number | undefined, fallbackMessage: string): PulseboardApiError {
  const flat = body as { status?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  const nested = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const source = nested !== undefined && typeof nested === 'object' ? nested : flat;
  const code = typeof source?.code === 'string' ? (source.code as ErrorCode) : 'unknown';
  const message = typeof source?.message === 'string' ? source.message : fallbackMessage;
  const details = source?.details !== undefined && typeof source.details === 'object' ? (source.details as ErrorDetails) : undefined;
  return new PulseboardApiError(status, code, message, details, body, retryAfterMs);
}
