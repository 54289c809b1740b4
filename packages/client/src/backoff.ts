export interface BackoffOptions {
  /** First retry's ceiling (ms). Default 100. */
  baseMs?: number;
  /** No delay above this (ms), except a longer Retry-After. Default 10,000. */
  maxMs?: number;
}

/**
 * Capped exponential backoff with full jitter: a delay drawn in
 * [0, min(maxMs, baseMs * 2^attempt)], so clients that failed together do not
 * come back together. A server's Retry-After is a floor: never sooner.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, retryAfterMs?: number, random: () => number = Math.random): number {
  const base = options.baseMs ?? 100;
  const max = options.maxMs ?? 10_000;
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
  const drawn = Math.round(random() * ceiling);
  return retryAfterMs === undefined ? drawn : Math.max(drawn, retryAfterMs);
}

/** Retry-After in seconds (what the gateway sends) or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
