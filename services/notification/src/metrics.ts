import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry } from '@pulseboard/config';

export interface NotificationMetrics {
  registry: Registry;
  created: Counter;
  attempts: Counter<'outcome'>;
  sendSeconds: Histogram<'type'>;
  /** Reads of the tiles' notification targets from Postgres, by why (none per batch once a project is known). */
  targetReads: Counter<'reason'>;
  /** Reports the queue's depth, read by `read` at each scrape. */
  watchQueue(read: () => Promise<{ due: number; scheduled: number }>): void;
}

export function createNotificationMetrics(): NotificationMetrics {
  const registry = createServiceRegistry('notification', new URL('../package.json', import.meta.url));
  return {
    registry,
    created: new Counter({
      name: 'pulseboard_notification_deliveries_created_total',
      help: 'Deliveries created (transitions and requests)',
      registers: [registry],
    }),
    attempts: new Counter({
      name: 'pulseboard_notification_attempts_total',
      help: 'Delivery tries by what came of them',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    sendSeconds: new Histogram({
      name: 'pulseboard_notification_send_seconds',
      help: 'Time one try took, by service type',
      labelNames: ['type'],
      buckets: [0.005, 0.02, 0.05, 0.1, 0.5, 1, 5, 10],
      registers: [registry],
    }),
    targetReads: new Counter({
      name: 'pulseboard_notification_target_reads_total',
      help: "Reads of tiles' attached services from Postgres, by reason (snapshot, feed, revision, new_project, poll)",
      labelNames: ['reason'],
      registers: [registry],
    }),
    watchQueue(read) {
      new Gauge({
        name: 'pulseboard_notification_queue_deliveries',
        help: 'Pending deliveries: due (waiting for a sender) or scheduled (a retry or a lease not yet over)',
        labelNames: ['state'],
        registers: [registry],
        async collect() {
          try {
            const depth = await read();
            this.set({ state: 'due' }, depth.due);
            this.set({ state: 'scheduled' }, depth.scheduled);
          } catch {
            // Postgres unreachable: no figure this scrape rather than a stale one.
            this.reset();
          }
        },
      });
    },
  };
}
