import { commonEnvProperties, loadEnv, type EnvOf, redisEnvProperties } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  ...redisEnvProperties,
  GATEWAY_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
  GATEWAY_HOST: { type: 'string', default: '0.0.0.0' },
  ADMIN_TOKEN: { type: 'string', default: '' },
  // Environment defaults for the limits of spec section 8; projects and accounts may override.
  DEFAULT_BURST_LIMIT: { type: 'integer', minimum: 1, default: 100 },
  DEFAULT_PROJECT_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 1000 },
  DEFAULT_ACCOUNT_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 5000 },
  GLOBAL_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 10000 },
  DEFAULT_MONTHLY_QUOTA: { type: 'integer', minimum: 0, default: 10000 },
  // 0: a produce request gathers the events of one event-loop turn (measured better than 1 ms under load).
  KAFKA_LINGER_MS: { type: 'integer', minimum: 0, default: 0 },
  KAFKA_DELIVERY_TIMEOUT_MS: { type: 'integer', minimum: 100, default: 5000 },
  // Concurrent requests share a produce request up to this size (below the broker's 1 MiB default).
  KAFKA_BATCH_MAX_BYTES: { type: 'integer', minimum: 1024, default: 921600 },
  // Produce requests in flight at once (one idempotent kafkajs producer each). With a linger of
  // one event-loop turn, 1 did better than 2 on bench:ingest (12.6k vs 11.3k /ingest req/s, mean
  // of 8 alternating runs), with about the same batch throughput but a higher batch p99 (54 vs
  // 43 ms, 3 runs). More may pay off with a broker further away.
  KAFKA_PRODUCER_LANES: { type: 'integer', minimum: 1, maximum: 16, default: 1 },
  WEBHOOK_OUTCOME_TIMEOUT_MS: { type: 'integer', minimum: 0, default: 2000 },
  // POST /notifications/:id/send(_message) waits this long for the delivery's outcome, then answers `pending`.
  NOTIFY_SEND_TIMEOUT_MS: { type: 'integer', minimum: 0, default: 10000 },
  IDEMPOTENCY_TTL_SECONDS: { type: 'integer', minimum: 1, default: 86400 },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export type GatewayEnv = EnvOf<typeof properties>;

export function loadGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  return loadEnv<GatewayEnv>(properties, env);
}
