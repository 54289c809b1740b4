import { eventTimeMs, type IngestedEvent } from '@pulseboard/contracts';

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

// Parsed as the gateway's timestamp window and the store's partitions read it.
export { eventTimeMs } from '@pulseboard/contracts';

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
    attributes: event.attributes,
  };
}
