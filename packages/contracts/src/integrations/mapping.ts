import type { ValidationDetails } from '../validation.ts';
import type { WebhookEvent } from '../webhook-request.schema.ts';
import type { SEVERITIES } from '../event-envelope.schema.ts';

export type Severity = (typeof SEVERITIES)[number];

/**
 * What an integration's mapping makes of one request of a tool (Alertmanager,
 * PagerDuty, GitHub, a CloudEvents sender): the events to ingest (envelopes of
 * spec 2.1 without `project_key`, which the authenticated project supplies),
 * or nothing to do (a payload the tool sends that Pulseboard does not follow),
 * or a payload that can never be accepted (400, `details` keyed by the
 * tool's own field names). The gateway then runs the usual validation, limits,
 * idempotency and produce path over the events, as one all-or-nothing batch.
 */
export type MappingResult = { kind: 'events'; events: WebhookEvent[] } | { kind: 'ignored'; reason: string } | { kind: 'invalid'; details: ValidationDetails };

/** What a mapping may know beyond the payload; passed in so each mapping stays a pure function. */
export interface MappingContext {
  /** When the gateway received the request. */
  receivedAt: Date;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Collects validation messages by field, in the style of the envelope's (`can't be blank`, ...). */
export class Problems {
  readonly details: ValidationDetails = {};
  add(field: string, message: string): void {
    (this.details[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.details).length === 0;
  }
  /** A required non-empty string, or a message. */
  requireString(field: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === '') this.add(field, "can't be blank");
    else if (typeof value !== 'string') this.add(field, 'must be a string');
    else return value;
    return undefined;
  }
  optionalString(field: string, value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      this.add(field, 'must be a string');
      return undefined;
    }
    return value;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The time of an event a tool reports about something that began earlier (an
 * alert firing since `startsAt`, a deployment updated at `updated_at`): that
 * time when it is a valid date within the last 24 hours of receipt, else the
 * receipt time. A tool repeats its notifications (Alertmanager every
 * `repeat_interval` with the first `startsAt`; GitHub on a manual redelivery),
 * and every project keeps at least a day of events: the event is then never
 * refused as older than the project's retention, which would make the tool
 * drop the whole group. The tool's own time stays in the attributes.
 */
export function recentOrReceived(time: unknown, context: MappingContext): string {
  const received = context.receivedAt.getTime();
  if (typeof time === 'string') {
    const ms = Date.parse(time);
    if (Number.isFinite(ms) && ms > received - DAY_MS && ms <= received + DAY_MS) return new Date(ms).toISOString();
  }
  return context.receivedAt.toISOString();
}

/**
 * A tool's severity word to the envelope's (spec 2.1). Alertmanager labels and
 * PagerDuty both say `warning`; `page`/`high`/`fatal` read as critical,
 * `low`/`none`/`debug` as info. Unknown words give `fallback`.
 */
export function severityOf(word: unknown, fallback: Severity): Severity {
  if (typeof word !== 'string') return fallback;
  switch (word.trim().toLowerCase()) {
    case 'critical':
    case 'fatal':
    case 'page':
    case 'high':
    case 'emergency':
      return 'critical';
    case 'error':
    case 'err':
    case 'major':
      return 'error';
    case 'warning':
    case 'warn':
    case 'minor':
    case 'medium':
      return 'warn';
    case 'info':
    case 'informational':
    case 'low':
    case 'none':
    case 'debug':
      return 'info';
    default:
      return fallback;
  }
}

/** `key=value` labels of the envelope (at most 50 of at most 100 characters; longer pairs are left to the attributes). */
export function keyValueLabels(map: Record<string, unknown>): string[] {
  const labels: string[] = [];
  for (const [key, value] of Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (typeof value !== 'string') continue;
    const label = `${key}=${value}`;
    if (label.length <= 100) labels.push(label);
    if (labels.length === 50) break;
  }
  return labels;
}
