import type { WindowEntry } from './tile-state.ts';

/** A window holds at most this many entries; past it, entries are merged into `WINDOW_SLOTS` slots per window. */
export const MAX_WINDOW_ENTRIES = 256;
export const WINDOW_SLOTS = 128;

export type WindowAggregate = 'count' | 'sum' | 'avg' | 'min' | 'max';

/**
 * A sliding window over the events' own times. An event stamped `t` counts
 * while `now - lengthMs < t`, so it leaves at `t + lengthMs` exactly.
 * Entries are immutable tuples; every function returns a new array (or the
 * same one when nothing changed).
 */
export interface SlidingWindow {
  readonly lengthMs: number;
  readonly aggregate: WindowAggregate;
  insert(entries: readonly WindowEntry[], time: number, x: number): readonly WindowEntry[];
  expire(entries: readonly WindowEntry[], now: number): readonly WindowEntry[];
  value(entries: readonly WindowEntry[]): number | null;
  nextExpiry(entries: readonly WindowEntry[]): number | null;
}

/** Index of the first entry at or after `time`. */
function lowerBound(entries: readonly WindowEntry[], time: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as WindowEntry)[0] < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** count, sum, avg: one entry per distinct time, merged on equal times. */
function insertAdditive(entries: readonly WindowEntry[], time: number, x: number): WindowEntry[] {
  const at = lowerBound(entries, time);
  const same = entries[at];
  const next = entries.slice();
  if (same !== undefined && same[0] === time) next[at] = [time, same[1] + 1, same[2] + x];
  else next.splice(at, 0, [time, 1, x]);
  return next;
}

/**
 * min, max: a monotonic deque. An entry is kept only while no entry at the
 * same or a later time is at least as extreme (that one outlives it), so the
 * values run strictly toward the front's extreme, which is the window's.
 * Works for events arriving out of order too.
 */
function insertExtreme(entries: readonly WindowEntry[], time: number, x: number, beats: (a: number, b: number) => boolean): readonly WindowEntry[] {
  const at = lowerBound(entries, time);
  const later = entries[at];
  if (later !== undefined && (later[2] === x || beats(later[2], x))) return entries;
  let from = at;
  while (from > 0 && !beats((entries[from - 1] as WindowEntry)[2], x)) from--;
  const to = later !== undefined && later[0] === time ? at + 1 : at;
  const next = entries.slice();
  next.splice(from, to - from, [time, 1, x]);
  return next;
}

/**
 * Keeps the window bounded: merges the entries of each slot of
 * `lengthMs / WINDOW_SLOTS` (aligned to the epoch) into one that leaves with
 * its newest event, so an event stays at most one slot longer than its time
 * says, never shorter. Entries still fitting under the cap are left exact.
 */
function compact(entries: readonly WindowEntry[], lengthMs: number, merge: (a: number, b: number) => number): readonly WindowEntry[] {
  if (entries.length <= MAX_WINDOW_ENTRIES) return entries;
  const slotMs = Math.ceil(lengthMs / WINDOW_SLOTS);
  const merged: WindowEntry[] = [];
  let slot = Number.NaN;
  for (const entry of entries) {
    const entrySlot = Math.floor(entry[0] / slotMs);
    const last = merged.at(-1);
    if (last !== undefined && entrySlot === slot) merged[merged.length - 1] = [entry[0], last[1] + entry[1], merge(last[2], entry[2])];
    else merged.push(entry);
    slot = entrySlot;
  }
  return merged;
}

const add = (a: number, b: number) => a + b;

export function slidingWindow(aggregate: WindowAggregate, lengthMs: number): SlidingWindow {
  const extreme = aggregate === 'min' ? Math.min : aggregate === 'max' ? Math.max : null;
  const merge = extreme ?? add;
  const beats = aggregate === 'min' ? (a: number, b: number) => a < b : (a: number, b: number) => a > b;
  return {
    lengthMs,
    aggregate,
    insert: (entries, time, x) => compact(extreme === null ? insertAdditive(entries, time, x) : insertExtreme(entries, time, x, beats), lengthMs, merge),
    expire(entries, now) {
      let gone = 0;
      while (gone < entries.length && (entries[gone] as WindowEntry)[0] + lengthMs <= now) gone++;
      return gone === 0 ? entries : entries.slice(gone);
    },
    value(entries) {
      if (extreme !== null) return entries[0]?.[2] ?? null;
      let count = 0;
      let sum = 0;
      for (const entry of entries) {
        count += entry[1];
        sum += entry[2];
      }
      if (aggregate === 'count') return count;
      if (aggregate === 'sum') return sum;
      return count === 0 ? null : sum / count;
    },
    nextExpiry: (entries) => (entries.length === 0 ? null : (entries[0] as WindowEntry)[0] + lengthMs),
  };
}
