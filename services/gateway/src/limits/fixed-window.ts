import type { RedisClient } from '../redis-client.ts';
import { LIMITER_HASH_TAG } from './limiter.ts';

// Counts one more in a window; the counter expires with its window.
const HIT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n`;

// Counts one more in every window, unless one of them has reached ARGV[2]: then counts nothing and
// answers that window's index (1-based), else 0. One call, so concurrent takers cannot all pass.
const TAKE = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[2]) then return i end
end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('EXPIRE', key, ARGV[1]) end
end
return 0`;

// Gives back what TAKE counted, in the same windows (a window that expired meanwhile is left alone).
const GIVE = `for _, key in ipairs(KEYS) do if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end end return 0`;

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

  /**
   * Counts one more for every subject unless one of them has reached `limit`
   * in this window: then counts nothing and answers that subject's Retry-After.
   * What was counted can be given back (`give`) with the answer's keys.
   */
  async take(subjects: readonly string[], limit: number): Promise<{ taken: true; keys: string[] } | { taken: false; retryAfter: number }> {
    const places = subjects.map((s) => this.where(s));
    const keys = places.map((p) => p.key);
    const over = Number(await this.redis.eval(TAKE, keys.length, ...keys, String(this.windowSeconds + 5), String(limit)));
    return over === 0 ? { taken: true, keys } : { taken: false, retryAfter: places[over - 1]!.retryAfter };
  }

  /** Gives back what `take` counted. */
  async give(keys: readonly string[]): Promise<void> {
    await this.redis.eval(GIVE, keys.length, ...keys);
  }

  /** The current counts of several subjects, counting nothing. */
  async read(subjects: readonly string[]): Promise<WindowCount[]> {
    const places = subjects.map((s) => this.where(s));
    const values = await this.redis.mget(...places.map((p) => p.key));
    return places.map((p, i) => ({ count: Number(values[i] ?? 0), retryAfter: p.retryAfter }));
  }
}
