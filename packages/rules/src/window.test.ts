import { describe, expect, it } from 'vitest';
import type { WindowEntry } from './tile-state.ts';
import { MAX_WINDOW_ENTRIES, WINDOW_SLOTS, slidingWindow, type WindowAggregate } from './window.ts';
import { MINUTE, SECOND, T0, seededRandom } from './test-support.ts';

function fill(aggregate: WindowAggregate, lengthMs: number, events: readonly [time: number, x: number][]): readonly WindowEntry[] {
  const window = slidingWindow(aggregate, lengthMs);
  return events.reduce<readonly WindowEntry[]>((entries, [time, x]) => window.insert(entries, time, x), []);
}

/** The aggregate over the events with `now - lengthMs < time <= now`, computed from every event. */
function exact(aggregate: WindowAggregate, events: readonly [number, number][], now: number, lengthMs: number): number | null {
  const xs = events.filter(([time]) => time > now - lengthMs && time <= now).map(([, x]) => x);
  if (aggregate === 'count') return xs.length;
  if (aggregate === 'sum') return xs.reduce((a, b) => a + b, 0);
  if (xs.length === 0) return null;
  if (aggregate === 'avg') return xs.reduce((a, b) => a + b, 0) / xs.length;
  return aggregate === 'min' ? Math.min(...xs) : Math.max(...xs);
}

describe('sliding window, exact while small', () => {
  const window = slidingWindow('count', MINUTE);

  it('keeps an event until exactly its time plus the window, then drops it', () => {
    const entries = window.insert([], T0, 0);
    expect(window.value(window.expire(entries, T0 + MINUTE - 1))).toBe(1);
    expect(window.value(window.expire(entries, T0 + MINUTE))).toBe(0);
    expect(window.nextExpiry(entries)).toBe(T0 + MINUTE);
  });

  it('lets events leave one by one, in time order whatever their arrival order', () => {
    const times = [T0 + 2 * SECOND, T0, T0 + 1 * SECOND, T0 + 1 * SECOND];
    const entries = times.reduce<readonly WindowEntry[]>((list, time) => window.insert(list, time, 0), []);
    expect(entries.map(([time, count]) => [time - T0, count])).toEqual([
      [0, 1],
      [1000, 2],
      [2000, 1],
    ]);
    const counts = [0, 1, 2, 3].map((s) => window.value(window.expire(entries, T0 + MINUTE + s * SECOND)));
    expect(counts).toEqual([3, 1, 0, 0]);
    expect(window.nextExpiry(window.expire(entries, T0 + MINUTE))).toBe(T0 + MINUTE + SECOND);
  });

  it('returns the same entries when nothing leaves', () => {
    const entries = window.insert([], T0, 0);
    expect(window.expire(entries, T0 + 1)).toBe(entries);
  });

  it('computes sum, avg, min and max over what is in the window', () => {
    const events: [number, number][] = [
      [T0, 5],
      [T0 + 10 * SECOND, 1],
      [T0 + 20 * SECOND, 9],
      [T0 + 5 * SECOND, 3],
    ];
    for (const aggregate of ['count', 'sum', 'avg', 'min', 'max'] as const) {
      const w = slidingWindow(aggregate, MINUTE);
      const entries = fill(aggregate, MINUTE, events);
      for (const now of [T0 + 20 * SECOND, T0 + MINUTE, T0 + MINUTE + 5 * SECOND, T0 + MINUTE + 10 * SECOND, T0 + MINUTE + 20 * SECOND]) {
        expect([aggregate, now - T0, w.value(w.expire(entries, now))]).toEqual([aggregate, now - T0, exact(aggregate, events, now, MINUTE)]);
      }
    }
  });

  it('keeps min and max as a monotonic deque: the next extreme takes over as the first leaves, even out of order', () => {
    const max = slidingWindow('max', MINUTE);
    // 9 at 0 s, 4 at 30 s, then a late 7 stamped 10 s and a 4 again at 30 s.
    let entries = fill('max', MINUTE, [
      [T0, 9],
      [T0 + 30 * SECOND, 4],
      [T0 + 10 * SECOND, 7],
      [T0 + 30 * SECOND, 4],
    ]);
    expect(entries.map(([time, , x]) => [time - T0, x])).toEqual([
      [0, 9],
      [10_000, 7],
      [30_000, 4],
    ]);
    // A 8 at 20 s outlives the 7 and is larger: the 7 can never be the max again.
    entries = max.insert(entries, T0 + 20 * SECOND, 8);
    expect(entries.map(([time, , x]) => [time - T0, x])).toEqual([
      [0, 9],
      [20_000, 8],
      [30_000, 4],
    ]);
    expect([MINUTE, MINUTE + 20 * SECOND, MINUTE + 30 * SECOND].map((offset) => max.value(max.expire(entries, T0 + offset)))).toEqual([8, 4, null]);
    const min = slidingWindow('min', MINUTE);
    const lows = fill('min', MINUTE, [
      [T0, 1],
      [T0 + 10 * SECOND, 5],
      [T0 + 5 * SECOND, 3],
    ]);
    expect([0, 5, 10].map((s) => min.value(min.expire(lows, T0 + MINUTE + s * SECOND)))).toEqual([3, 5, null]);
  });
});

describe('sliding window, bounded', () => {
  it('holds 100,000 events of a day in at most MAX_WINDOW_ENTRIES entries, an event kept at most one slot too long and never dropped early', () => {
    const lengthMs = 24 * 60 * MINUTE;
    const slotMs = Math.ceil(lengthMs / WINDOW_SLOTS);
    const random = seededRandom(42);
    for (const aggregate of ['count', 'sum', 'max'] as const) {
      const window = slidingWindow(aggregate, lengthMs);
      const events: [number, number][] = [];
      let entries: readonly WindowEntry[] = [];
      let largest = 0;
      for (let i = 0; i < 100_000; i++) {
        const now = T0 + i * 864;
        // Mostly in order, some up to an hour late.
        const time = random() < 0.1 ? now - Math.floor(random() * 60 * MINUTE) : now;
        const x = Math.floor(random() * 1000);
        events.push([time, x]);
        entries = window.insert(window.expire(entries, now), time, x);
        largest = Math.max(largest, entries.length);
        if (i % 9973 === 0 || i === 99_999) {
          const value = window.value(entries) as number;
          const atLeast = exact(aggregate, events, now, lengthMs) as number;
          const atMost = exact(aggregate, events, now, lengthMs + slotMs) as number;
          expect(value).toBeGreaterThanOrEqual(atLeast);
          expect(value).toBeLessThanOrEqual(atMost);
        }
      }
      expect(largest).toBeLessThanOrEqual(MAX_WINDOW_ENTRIES);
      // Long after the last event, everything has left.
      expect(window.value(window.expire(entries, T0 + 100_000 * 864 + lengthMs + slotMs))).toBe(aggregate === 'max' ? null : 0);
    }
  });
});
