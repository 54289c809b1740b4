import type { ValidationDetails } from '@pulseboard/contracts';

// A date, or a date-time with an explicit offset: "2026-01-02T10:00:00" alone would be read in the server's zone.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

// Postgres has no year 0 ('0000-01-01' is out of range there) and an instant past 9999 has no
// four-digit ISO form: a time outside these years would reach the query and fail it.
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** A query's time: a date or a date-time with an offset, between the years 1 and 9999 (UTC); else undefined. */
export function parseTime(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_8601.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) || time < EARLIEST || time > LATEST ? undefined : new Date(time);
}

export interface TimeWindow {
  since: Date;
  until: Date;
}

export interface WindowBounds {
  /** The window when `since` is not given: this long before `until`. */
  defaultMs: number;
  /** The longest window allowed: a longer one is a validation error, not silently cut. */
  maxMs: number;
}

const hours = (ms: number) => `${ms / 3_600_000} h`;

/**
 * `since` (inclusive) and `until` (exclusive, default now), bounded: without
 * `since` the window is the last `defaultMs` before `until`; a window longer
 * than `maxMs` or ending before it starts is a validation error.
 */
export function parseTimeWindow(
  query: Record<string, unknown>,
  bounds: WindowBounds,
  now: number,
): { ok: true; window: TimeWindow } | { ok: false; details: ValidationDetails } {
  const details: ValidationDetails = {};
  const read = (name: 'since' | 'until') => {
    const raw = query[name];
    if (raw === undefined) return undefined;
    const time = Array.isArray(raw) ? undefined : parseTime(raw);
    if (time === undefined) details[name] = [Array.isArray(raw) ? 'must be given once' : 'is not a valid ISO 8601 timestamp'];
    return time;
  };
  const sinceGiven = read('since');
  const until = read('until') ?? new Date(now);
  const since = sinceGiven ?? new Date(until.getTime() - bounds.defaultMs);
  if (Object.keys(details).length === 0) {
    if (until <= since) details.until = ['must be after since'];
    else if (until.getTime() - since.getTime() > bounds.maxMs) details.since = [`must be at most ${hours(bounds.maxMs)} before until`];
  }
  return Object.keys(details).length > 0 ? { ok: false, details } : { ok: true, window: { since, until } };
}
