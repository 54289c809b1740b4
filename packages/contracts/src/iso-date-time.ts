/**
 * The common shape of an ISO 8601 timestamp, `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`,
 * recognised in one pass over the characters. Every string it accepts is also a
 * valid `iso-date-time` of ajv-formats; anything else (other separators or offset
 * forms, leap seconds, invalid text) is left to that format's own check. It exists
 * because the format's three regular expressions and a split were a visible part
 * of validating a 100-event batch.
 */
export function isCommonIsoDateTime(s: string): boolean {
  const length = s.length;
  if (length < 19) return false;
  const sep = s.charCodeAt(10);
  if (!(sep === 84 /* T */ || sep === 116 /* t */ || sep === 32) || dateTimeFields(s) === undefined) return false;
  let i = 19;
  if (i < length && s.charCodeAt(i) === 46 /* . */) {
    const start = ++i;
    while (i < length && isDigit(s.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  if (i === length) return true;
  const zone = s.charCodeAt(i);
  if ((zone === 90 /* Z */ || zone === 122) /* z */ && i + 1 === length) return true;
  if ((zone === 43 /* + */ || zone === 45) /* - */ && i + 6 === length && s.charCodeAt(i + 3) === 58) {
    const zoneHour = digits(s, i + 1, 2);
    const zoneMinute = digits(s, i + 4, 2);
    return zoneHour >= 0 && zoneHour <= 23 && zoneMinute >= 0 && zoneMinute <= 59;
  }
  return false;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

export interface DateTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The fields of `YYYY-MM-DD?HH:MM:SS` at the start of `s` (whatever stands at
 * the `?`), each in range and the day within its month (no leap second), or
 * undefined.
 */
export function dateTimeFields(s: string): DateTimeFields | undefined {
  if (s.length < 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  )
    return undefined;
  return { year, month, day, hour, minute, second };
}

/** The number `count` ASCII digits at `start` spell, or -1. */
function digits(s: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = s.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  return month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS[month]!;
}
