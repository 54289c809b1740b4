import type { RedisClient } from '../redis-client.ts';
import { LIMITER_HASH_TAG } from './limiter.ts';

// Counts one more in a window; the counter expires with its window.
const HIT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n`;

export interface WindowCount {
  count: number;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

/**
 * Fixed UTC windows of `windowSeconds` counted in Redis (abuse limits beside
 * the limiter's: failed authentications, sends). Keys carry the limiter's hash
 * tag, so reads of several go to one Redis Cluster slot.
 */
export class FixedWindowCounter {
  constructor(
    private readonly redis: RedisClient,
    private readonly name: string,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  private where(subject: string): { key: string; retryAfter: number } {
    const seconds = Math.floor(this.now() / 1000);
    const window = Math.floor(seconds / this.windowSeconds);
    return { key: `${LIMITER_HASH_TAG}:${this.name}:${subject}:${window}`, retryAfter: Math.max(1, (window + 1) * this.windowSeconds - seconds) };
  }

  /** Counts one more for `subject`; the count after it. */
  async hit(subject: string): Promise<WindowCount> {
    const { key, retryAfter } = this.where(subject);
    const count = Number(await this.redis.eval(HIT, 1, key, String(this.windowSeconds + 5)));
    return { count, retryAfter };
  }

  /** The current counts of several subjects, counting nothing. */
  async read(subjects: readonly string[]): Promise<WindowCount[]> {
    const places = subjects.map((s) => this.where(s));
    const values = await this.redis.mget(...places.map((p) => p.key));
    return places.map((p, i) => ({ count: Number(values[i] ?? 0), retryAfter: p.retryAfter }));
  }
}
