import { describe, expect, it } from 'vitest';
import { EventIdAllocator, EVENT_ID_BLOCK_SIZE } from './event-id-allocator.ts';

/** A sequence of blocks as Postgres hands them out, which can be taken down and brought back. */
function fakeSequence() {
  let next = 1;
  const state = { up: true, calls: [] as number[] };
  const reserve = async (count: number) => {
    state.calls.push(count);
    if (!state.up) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    return Array.from({ length: count }, () => {
      const start = next;
      next += EVENT_ID_BLOCK_SIZE;
      return start;
    });
  };
  return { state, reserve };
}

describe('the event id reserve', () => {
  it('holds rate × time ids, filled in one round trip, and grows with the measured rate', async () => {
    let now = 1_000_000;
    const seq = fakeSequence();
    const ids = new EventIdAllocator(seq.reserve, { minRatePerSecond: 1000, seconds: 15, maxIds: 1_000_000, now: () => now });
    await ids.fill();
    expect(seq.state.calls).toEqual([15]);
    expect(ids.reserve).toBe(15_000);
    // 3,000 events in one second: the target becomes 3,000 × 15.
    for (let i = 0; i < 30; i++) await ids.allocateMany(100);
    expect(ids.target()).toBe(45_000);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(ids.reserve).toBeGreaterThanOrEqual(45_000 - 100);
    // Ten quiet seconds later, the measured peak no longer counts.
    now += 11_000;
    expect(ids.target()).toBe(15_000);
  });

  it('serves from the reserve while Postgres is down, then refuses as retryable (503) without a round trip per request, and refills once it is back', async () => {
    let now = 1_000_000;
    const seq = fakeSequence();
    const ids = new EventIdAllocator(seq.reserve, { minRatePerSecond: 1000, seconds: 10, maxIds: 1_000_000, now: () => now });
    await ids.fill();
    seq.state.up = false;
    const served: number[] = [];
    // Ten seconds at 1,000 events/s: every one served from the reserve.
    for (let second = 0; second < 10; second++, now += 1000) {
      for (let i = 0; i < 10; i++) served.push(...(await ids.allocateMany(100)));
    }
    expect(served.length).toBe(10_000);
    expect(new Set(served).size).toBe(10_000);
    // Spent: refused as event_ids_unavailable, and within one backoff only one round trip is tried.
    await expect(ids.allocateMany(100)).rejects.toMatchObject({ code: 'event_ids_unavailable' });
    const tried = seq.state.calls.length;
    for (let i = 0; i < 50; i++) await expect(ids.allocate()).rejects.toMatchObject({ code: 'event_ids_unavailable' });
    expect(seq.state.calls.length).toBe(tried);
    // Back: the next request after the (capped) backoff reserves again and is served.
    seq.state.up = true;
    now += 1000;
    const after = await ids.allocate();
    expect(after).toBeGreaterThan(Math.max(...served));
  });

  it('never hands out an id twice among concurrent callers', async () => {
    const seq = fakeSequence();
    const ids = new EventIdAllocator(seq.reserve, { minRatePerSecond: 100, seconds: 1, maxIds: 5000 });
    const all = (await Promise.all(Array.from({ length: 300 }, () => ids.allocateMany(7)))).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});
