const HAS_ZONE = /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/;

/**
 * Epoch milliseconds of an ISO 8601 timestamp the gateway accepted. A
 * timestamp without an offset is UTC (as the store's Postgres session reads
 * it), never the process's local time; `+0200` and `+02` offsets and a leap
 * second (`23:59:60`, the next second, as Postgres has it) are understood.
 * NaN for anything else.
 */
export function eventTimeMs(timestamp: string): number {
  // The usual form (`…T…Z`, no leap second) is what the slow path would hand to Date.parse unchanged:
  // it is read without the regexes, once per event in the gateway and the store.
  const t = timestamp;
  if (t.length >= 20 && t.charCodeAt(10) === 84 /* T */ && t.charCodeAt(t.length - 1) === 90 /* Z */ && !(t.charCodeAt(17) === 54 && t.charCodeAt(18) === 48)) /* not :60 */ return Date.parse(t);
  let text = timestamp.length > 10 ? `${timestamp.slice(0, 10)}T${timestamp.slice(11)}` : timestamp;
  if (!HAS_ZONE.test(text)) text += 'Z';
  text = text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2').replace(/([+-]\d\d)$/, '$1:00');
  const leap = /^(.{17})60/.exec(text);
  if (leap !== null) return Date.parse(`${leap[1]}59${text.slice(19)}`) + 1000;
  return Date.parse(text);
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
