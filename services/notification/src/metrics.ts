import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface NotificationMetrics {
  registry: Registry;
  created: Counter;
  attempts: Counter<'outcome'>;
  sendSeconds: Histogram<'type'>;
}

export function createNotificationMetrics(): NotificationMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    created: new Counter({ name: 'notification_deliveries_created_total', help: 'Deliveries created (transitions and requests)', registers: [registry] }),
    attempts: new Counter({ name: 'notification_attempts_total', help: 'Delivery tries by what came of them', labelNames: ['outcome'], registers: [registry] }),
    sendSeconds: new Histogram({ name: 'notification_send_seconds', help: 'Time one try took, by service type', labelNames: ['type'], buckets: [0.005, 0.02, 0.05, 0.1, 0.5, 1, 5, 10], registers: [registry] }),
  };
}
