import { isRetryable } from '@pulseboard/contracts';

// SQLSTATE classes worth a retry: connection (08), transaction rollback such as
// serialization failures and deadlocks (40), insufficient resources (53),
// operator intervention such as a shutdown (57), system errors (58).
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);
const TRANSIENT_SYSCALL_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * Whether an error is worth retrying, by property only: a `retryable` flag
 * (PulseboardError), kafkajs' `retriable`, a transient SQLSTATE, a network
 * failure code, or pg's lost connection (which carries no code).
 */
export function isTransient(error: unknown): boolean {
  if (isRetryable(error)) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { retriable, code, message } = error as { retriable?: unknown; code?: unknown; message?: unknown };
  if (retriable === true) return true;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
    if (TRANSIENT_SYSCALL_CODES.has(code)) return true;
  }
  // pg's own, code-less: a connection lost mid-query, a pool that could not connect in time, and a
  // checked-out client whose connection died between two queries ("... and is not queryable").
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|is not queryable/i.test(message);
}

/**
 * The longest wait between two tries of a retryable failure (a consumer's
 * batch, a claim, a relay round): short enough that a dependency back from an
 * outage is used again within a few seconds.
 */
export const RETRY_MAX_BACKOFF_MS = 2000;

/** A retried failure in a log line: its code and message (a retry every second of an outage needs no stack each). */
export function errorFields(error: unknown): { error: string; error_code?: string } {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  return {
    error: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' || typeof code === 'number' ? { error_code: String(code) } : {}),
  };
}
