import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

export interface EngineMetrics {
  registry: Registry;
  evaluated(tilesAffected: number): void;
  changes(count: number): void;
  dropped(): void;
  relayed(count: number): void;
}

export function createEngineMetrics(): EngineMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const events = new Counter({ name: 'rule_engine_events_evaluated_total', help: 'Events evaluated against their project rules', registers: [registry] });
  const affected = new Counter({ name: 'rule_engine_tiles_affected_total', help: 'Tiles whose status or value an event changed', registers: [registry] });
  const changes = new Counter({ name: 'rule_engine_tile_changes_total', help: 'Tile state changes written (events, time and rule changes)', registers: [registry] });
  const dropped = new Counter({ name: 'rule_engine_messages_dropped_total', help: 'Messages skipped: undecodable, or failing for a reason a retry cannot fix', registers: [registry] });
  const relayed = new Counter({ name: 'rule_engine_outbox_relayed_total', help: 'Outbox messages sent to Kafka', registers: [registry] });
  return {
    registry,
    evaluated: (n) => {
      events.inc();
      affected.inc(n);
    },
    changes: (n) => changes.inc(n),
    dropped: () => dropped.inc(),
    relayed: (n) => relayed.inc(n),
  };
}
