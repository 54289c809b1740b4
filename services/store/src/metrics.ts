import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

export interface StoreMetrics {
  registry: Registry;
  record(received: number, inserted: number): void;
}

export function createStoreMetrics(): StoreMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const received = new Counter({ name: 'store_events_received_total', help: 'Events read from the events topic', registers: [registry] });
  const inserted = new Counter({ name: 'store_events_inserted_total', help: 'Events newly written to Postgres', registers: [registry] });
  const duplicates = new Counter({ name: 'store_events_duplicate_total', help: 'Redelivered events that were already stored', registers: [registry] });
  return {
    registry,
    record(r, i) {
      received.inc(r);
      inserted.inc(i);
      duplicates.inc(r - i);
    },
  };
}
