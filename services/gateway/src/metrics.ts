import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface GatewayMetrics {
  registry: Registry;
  eventsAccepted: Counter<'endpoint'>;
  requestsRejected: Counter<'endpoint' | 'reason'>;
  kafkaAckMs: Histogram;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    eventsAccepted: new Counter({ name: 'gateway_events_accepted_total', help: 'Events acknowledged by Kafka and answered 201/202', labelNames: ['endpoint'], registers: [registry] }),
    requestsRejected: new Counter({ name: 'gateway_requests_rejected_total', help: 'Ingest requests refused, by reason code', labelNames: ['endpoint', 'reason'], registers: [registry] }),
    kafkaAckMs: new Histogram({ name: 'gateway_kafka_ack_ms', help: 'Time from hand-off to Kafka acknowledgement', buckets: [1, 2, 5, 10, 20, 50, 100, 250, 1000, 5000], registers: [registry] }),
  };
}
