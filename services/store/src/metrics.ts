import { Counter, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry } from '@pulseboard/config';

export interface StoreMetrics {
  registry: Registry;
  /** A batch written and committed: its size, the events new to the table, the seconds its writes took. */
  record(events: number, stored: number, seconds: number): void;
}

export function createStoreMetrics(): StoreMetrics {
  const registry = createServiceRegistry('store', new URL('../package.json', import.meta.url));
  const stored = new Counter({ name: 'pulseboard_store_events_stored_total', help: 'Events written to Postgres (each exactly once)', registers: [registry] });
  const duplicates = new Counter({
    name: 'pulseboard_store_events_duplicate_total',
    help: 'Events already stored under their id (sent twice by a gateway), skipped',
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: 'pulseboard_store_batch_write_seconds',
    help: 'Time to write one batch (COPY of events and labels, counters) inside its transaction',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    record(events, fresh, seconds) {
      stored.inc(fresh);
      duplicates.inc(events - fresh);
      batchSeconds.observe(seconds);
    },
  };
}
