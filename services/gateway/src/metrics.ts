import { Counter, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry } from '@pulseboard/config';

export interface GatewayMetrics {
  registry: Registry;
  eventsAccepted: Counter<'endpoint'>;
  requestsRejected: Counter<'endpoint' | 'reason'>;
  kafkaAckSeconds: Histogram;
  webhookBatchEvents: Histogram;
  limiterBatchOperations: Histogram;
  kafkaProduceRequestMessages: Histogram;
  credentialLookups: Counter<'kind'>;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = createServiceRegistry('gateway', new URL('../package.json', import.meta.url));
  return {
    registry,
    eventsAccepted: new Counter({
      name: 'pulseboard_gateway_events_accepted_total',
      help: 'Events acknowledged by Kafka and answered 201/202',
      labelNames: ['endpoint'],
      registers: [registry],
    }),
    requestsRejected: new Counter({
      name: 'pulseboard_gateway_requests_rejected_total',
      help: 'Ingest requests answered with an error, by error code',
      labelNames: ['endpoint', 'reason'],
      registers: [registry],
    }),
    kafkaAckSeconds: new Histogram({
      name: 'pulseboard_gateway_kafka_ack_seconds',
      help: 'Time from hand-off to Kafka acknowledgement',
      buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    }),
    webhookBatchEvents: new Histogram({
      name: 'pulseboard_gateway_webhook_batch_events',
      help: 'Events per accepted webhooks batch',
      buckets: [1, 5, 10, 25, 50, 75, 100],
      registers: [registry],
    }),
    // How many events one Kafka produce request carries: the producer's group commit at work.
    kafkaProduceRequestMessages: new Histogram({
      name: 'pulseboard_gateway_kafka_produce_request_messages',
      help: 'Events per Kafka produce request',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048],
      registers: [registry],
    }),
    // How many requests one limiter script call decides: the micro-batching at work.
    // Postgres lookups of credentials the cache could not answer: what the failed-authentication throttle bounds.
    credentialLookups: new Counter({
      name: 'pulseboard_gateway_credential_lookups_total',
      help: 'Credentials looked up in Postgres (project keys not cached, user tokens), by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    limiterBatchOperations: new Histogram({
      name: 'pulseboard_gateway_limiter_batch_operations',
      help: 'Limit operations decided per Redis script call',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 500],
      registers: [registry],
    }),
  };
}
