import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from './backoff.ts';

describe('backoff', () => {
  it('grows exponentially up to the cap, jittered below the ceiling', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, { baseMs: 100, maxMs: 1000 }, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(5, { baseMs: 100, maxMs: 1000 }, undefined, () => 0)).toBe(0);
  });
  it('never comes back before Retry-After', () => {
    expect(backoffDelay(0, { baseMs: 100 }, 3000, () => 1)).toBe(3000);
  });
  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5000)).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
