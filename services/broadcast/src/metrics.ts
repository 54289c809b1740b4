import { Counter, Gauge, type Registry } from 'prom-client';
import { createServiceRegistry } from '@pulseboard/config';

export interface BroadcastMetrics {
  registry: Registry;
  connections: Gauge;
  messagesSent: Counter;
  changesReceived: Counter;
  /** By reason; `slow_consumer` counts the slow clients dropped. */
  closed: Counter<'reason'>;
  /** Events the tail feed handed a tail, by what became of them (sent, skipped, filtered). */
  tailEvents: Counter<'outcome'>;
  /** Postgres lookups of WebSocket credentials: what the failed-authentication throttle bounds. */
  credentialLookups: Counter;
  /** Reports the subscriptions held, counted by `count` at each scrape. */
  watchSubscriptions(count: () => number): void;
}

export function createBroadcastMetrics(): BroadcastMetrics {
  const registry = createServiceRegistry('broadcast', new URL('../package.json', import.meta.url));
  return {
    registry,
    connections: new Gauge({ name: 'pulseboard_broadcast_connections', help: 'Open WebSocket connections', registers: [registry] }),
    messagesSent: new Counter({ name: 'pulseboard_broadcast_messages_sent_total', help: 'Messages sent to clients', registers: [registry] }),
    changesReceived: new Counter({ name: 'pulseboard_broadcast_changes_received_total', help: 'Tile changes read from Kafka', registers: [registry] }),
    closed: new Counter({
      name: 'pulseboard_broadcast_connections_closed_total',
      help: 'Connections closed by the server, by reason (slow_consumer: a client that could not keep up, dropped)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    tailEvents: new Counter({
      name: 'pulseboard_broadcast_tail_events_total',
      help: 'Events offered to live tails, by outcome (sent, skipped: over the rate or a slow client, filtered)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    credentialLookups: new Counter({
      name: 'pulseboard_broadcast_credential_lookups_total',
      help: 'WebSocket credentials looked up in Postgres (upgrade headers and auth messages)',
      registers: [registry],
    }),
    watchSubscriptions(count) {
      new Gauge({
        name: 'pulseboard_broadcast_subscriptions',
        help: 'Project subscriptions held by open connections',
        registers: [registry],
        collect() {
          this.set(count());
        },
      });
    },
  };
}
