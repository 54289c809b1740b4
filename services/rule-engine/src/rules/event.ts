import type { IngestedEvent } from '@pulseboard/contracts';

/** What the rules read of an event, its timestamp parsed once for every tile it meets. */
export interface RuleEvent {
  id: number;
  type: string;
  name: string;
  /** The event's own `timestamp`, epoch milliseconds. */
  time: number;
  severity: string | undefined;
  source: string | undefined;
  channel: string | undefined;
  labels: readonly string[];
  attributes: Readonly<Record<string, unknown>>;
}

const HAS_ZONE = /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/;

/**
 * Epoch milliseconds of an ISO 8601 timestamp the gateway accepted. A
 * timestamp without an offset is UTC (as the store's Postgres session reads
 * it), never the engine's local time; `+0200` and `+02` offsets and a leap
 * second (`23:59:60`, the next second, as Postgres has it) are understood.
 * NaN for anything else.
 */
export function eventTimeMs(timestamp: string): number {
  let text = timestamp.length > 10 ? `${timestamp.slice(0, 10)}T${timestamp.slice(11)}` : timestamp;
  if (!HAS_ZONE.test(text)) text += 'Z';
  text = text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2').replace(/([+-]\d\d)$/, '$1:00');
  const leap = /^(.{17})60/.exec(text);
  if (leap !== null) return Date.parse(`${leap[1]}59${text.slice(19)}`) + 1000;
  return Date.parse(text);
}

/** The event as the rules see it; an unreadable timestamp falls back to when the gateway received it. */
export function toRuleEvent(event: IngestedEvent): RuleEvent {
  const time = eventTimeMs(event.timestamp);
  return {
    id: event.id,
    type: event.type,
    name: event.name,
    time: Number.isNaN(time) ? Date.parse(event.received_at) : time,
    severity: event.severity,
    source: event.source,
    channel: event.channel,
    labels: event.labels ?? [],
    attributes: event.attributes as Record<string, unknown>,
  };
}
