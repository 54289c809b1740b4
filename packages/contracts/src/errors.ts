/**
 * Errors that cross a boundary carry a stable string code and a retryable flag;
 * callers classify by these properties, never by class.
 */
export interface PulseboardError extends Error {
  code: string;
  retryable: boolean;
  status?: number;
  details?: Record<string, string[]>;
}

export function pulseboardError(
  code: string,
  message: string,
  options: { retryable?: boolean; status?: number; details?: Record<string, string[]>; cause?: unknown } = {},
): PulseboardError {
  const error = new Error(message, options.cause === undefined ? undefined : { cause: options.cause }) as PulseboardError;
  error.code = code;
  error.retryable = options.retryable ?? false;
  if (options.status !== undefined) error.status = options.status;
  if (options.details !== undefined) error.details = options.details;
  return error;
}

export function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

export function errorCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'internal_error';
}
