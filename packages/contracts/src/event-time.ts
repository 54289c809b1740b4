import { dateTimeFields } from './iso-date-time.ts';

const HAS_ZONE = /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/;

/**
 * Epoch milliseconds of an ISO 8601 timestamp the gateway accepted. A
 * timestamp without an offset is UTC (as the store's Postgres session reads
 * it), never the process's local time; `+0200` and `+02` offsets and a leap
 * second (`23:59:60`, the next second, as Postgres has it) are understood.
 * NaN for anything else.
 */
export function eventTimeMs(timestamp: string): number {
  // The usual form is read digit by digit, once per event in the gateway and the store: no regex, no Date.parse.
  const usual = usualFormMs(timestamp);
  if (usual !== undefined) return usual;
  let text = timestamp.length > 10 ? `${timestamp.slice(0, 10)}T${timestamp.slice(11)}` : timestamp;
  if (!HAS_ZONE.test(text)) text += 'Z';
  text = text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2').replace(/([+-]\d\d)$/, '$1:00');
  const leap = /^(.{17})60/.exec(text);
  if (leap !== null) return Date.parse(`${leap[1]}59${text.slice(19)}`) + 1000;
  return Date.parse(text);
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (what `toISOString()` writes), in epoch
 * milliseconds, as Date.parse reads it (a fraction past milliseconds is cut
 * off); undefined for every other form, which the general path reads. A
 * day its month does not have, a year before 100 and second 60 go that way
 * too, so that only Date.parse decides what they mean.
 */
function usualFormMs(t: string): number | undefined {
  const n = t.length;
  if (n < 20 || t.charCodeAt(n - 1) !== 90 /* Z */ || t.charCodeAt(10) !== 84 /* T */) return undefined;
  const f = dateTimeFields(t);
  if (f === undefined || f.year < 100) return undefined;
  let ms = 0;
  if (n > 20) {
    // A fraction: a dot and 1 to 9 digits; its first three are the milliseconds.
    if (t.charCodeAt(19) !== 46 || n < 22 || n > 30) return undefined;
    for (let i = 20; i < n - 1; i++) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return undefined;
      if (i < 23) ms += d * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  }
  return daysFromCivil(f.year, f.month, f.day) * DAY_MS + f.hour * 3_600_000 + f.minute * 60_000 + f.second * 1000 + ms;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil), for years from 0 on: integer arithmetic, no Date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export const DAY_MS = 86_400_000;

/** CONTRACT Events, Retention: how far ahead of the gateway's clock an event's `timestamp` may lie. */
const MAX_FUTURE_MS = DAY_MS;

/**
 * The longest retention a project may set (days): the store keeps one partition
 * per day for as long as the longest retention in force, and some 400 of them
 * (13 months) is as many as keep planning cheap. Longer keeping is an archive's job.
 */
export const MAX_RETENTION_DAYS = 400;

/**
 * The timestamp window (CONTRACT Events, Retention): the message for a
 * timestamp older than the retention or more than 24 h ahead of `nowMs`, or
 * undefined inside it (both edges included).
 */
export function timestampWindowProblem(timestamp: string, retentionDays: number, nowMs: number): string | undefined {
  const time = eventTimeMs(timestamp);
  if (Number.isNaN(time)) return undefined;
  if (time < nowMs - retentionDays * DAY_MS) return 'is too far in the past';
  if (time > nowMs + MAX_FUTURE_MS) return 'is too far in the future';
  return undefined;
}
