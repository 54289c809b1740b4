import { describe, expect, it } from 'vitest';
import { nextDelayMs } from './backoff.ts';

describe('retry schedule', () => {
  const hour = 3_600_000;
  it('starts at about a second, doubles, is capped at an hour, and jitters within half', () => {
    const at = (attempts: number, r: number) => nextDelayMs(attempts, { firstMs: 1000, maxMs: hour, random: () => r });
    expect([1, 2, 3, 4].map((n) => at(n, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(at(1, 0)).toBe(500);
    expect(at(30, 1)).toBe(hour);
    // How many tries 24 h allow with these defaults (the closing note quotes it).
    let elapsed = 0;
    let tries = 0;
    while (elapsed < 24 * hour) elapsed += at(++tries, 0.5);
    expect(tries).toBeGreaterThan(20);
  });

  it('honours a longer Retry-After, within the cap', () => {
    expect(nextDelayMs(1, { firstMs: 1000, maxMs: hour, retryAfterMs: 30_000, random: () => 1 })).toBe(30_000);
    expect(nextDelayMs(1, { firstMs: 1000, maxMs: hour, retryAfterMs: 10 * hour, random: () => 1 })).toBe(hour);
    // Past a short cap of our own too: the target asked for it.
    expect(nextDelayMs(1, { firstMs: 100, maxMs: 400, retryAfterMs: 1000, random: () => 1 })).toBe(1000);
  });
});
