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
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(message);
}
