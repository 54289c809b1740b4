import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface BroadcastMetrics {
  registry: Registry;
  connections: Gauge;
  messagesSent: Counter;
  changesReceived: Counter;
  closed: Counter<'reason'>;
}

export function createBroadcastMetrics(): BroadcastMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    connections: new Gauge({ name: 'broadcast_connections', help: 'Open WebSocket connections', registers: [registry] }),
    messagesSent: new Counter({ name: 'broadcast_messages_sent_total', help: 'Messages sent to clients', registers: [registry] }),
    changesReceived: new Counter({ name: 'broadcast_changes_received_total', help: 'Tile changes read from Kafka', registers: [registry] }),
    closed: new Counter({ name: 'broadcast_connections_closed_total', help: 'Connections closed by the server, by reason', labelNames: ['reason'], registers: [registry] }),
  };
}
