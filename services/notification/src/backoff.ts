/**
 * The delay before the next try after `attempts` tries: about `first` after
 * the first, doubling, capped, with jitter (half fixed, half random) so a
 * receiver that comes back is not hit by every sender at once. A target's
 * Retry-After wins when it asks for longer.
 */
export function nextDelayMs(attempts: number, options: { firstMs: number; maxMs: number; retryAfterMs?: number | undefined; random?: () => number }): number {
  const base = Math.min(options.maxMs, options.firstMs * 2 ** Math.max(0, attempts - 1));
  const jittered = base / 2 + (options.random ?? Math.random)() * (base / 2);
  if (options.retryAfterMs === undefined) return Math.round(jittered);
  // The target's own wish, even past our cap, up to an hour (a year-long Retry-After is not honoured).
  return Math.round(Math.max(jittered, Math.min(options.retryAfterMs, Math.max(options.maxMs, RETRY_AFTER_CAP_MS))));
}

const RETRY_AFTER_CAP_MS = 3_600_000;
