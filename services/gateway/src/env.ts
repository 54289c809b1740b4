import { commonEnvProperties, loadEnv, outboundEnvProperties, type EnvOf, redisEnvProperties, secretsEnvProperties } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  ...redisEnvProperties,
  ...secretsEnvProperties,
  // Notification target URLs with a literal address are refused at creation unless global unicast (or allowed here).
  ...outboundEnvProperties,
  GATEWAY_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
  GATEWAY_HOST: { type: 'string', default: '0.0.0.0' },
  // Guards /api/v1/admin/*. Required and strong (no default, nothing short or published): see SECURITY.md.
  ADMIN_TOKEN: { type: 'string', strongSecret: true },
  // Environment defaults for the limits of spec section 8; projects and accounts may override.
  DEFAULT_BURST_LIMIT: { type: 'integer', minimum: 1, default: 100 },
  DEFAULT_PROJECT_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 1000 },
  DEFAULT_ACCOUNT_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 5000 },
  GLOBAL_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 10000 },
  DEFAULT_MONTHLY_QUOTA: { type: 'integer', minimum: 0, default: 10000 },
  // How long an event waits for others to share its produce request, only while requests come less than
  // that apart (a trickle leaves on the next event-loop turn). 0: one event-loop turn always. Default 0:
  // 5 and 10 cut produce requests per event at 1,000/s by 2x to 3x, but the total CPU by no more than
  // the runs' noise at 5, and at 10 at the price of `/ingest` p99 ≤ 20 ms (docs/performance.md).
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
  // A JSON body holds at most this many values (array items, object fields); more is 413 before parsing.
  BODY_MAX_JSON_VALUES: { type: 'integer', minimum: 1000, default: 100000 },
  // Abuse limits (docs/read-api.md, Abuse limits): failed authentications a minute per client
  // address and per key prefix before 429; sends a minute per account; caps on resources.
  AUTH_FAILURES_PER_MINUTE: { type: 'integer', minimum: 1, default: 20 },
  NOTIFY_SENDS_PER_MINUTE: { type: 'integer', minimum: 1, default: 30 },
  MAX_TILES_PER_PROJECT: { type: 'integer', minimum: 1, default: 500 },
  // POST /tiles/preview gives up (400) after this long reading events (docs/read-api.md).
  PREVIEW_TIME_LIMIT_MS: { type: 'integer', minimum: 100, maximum: 600000, default: 10000 },
  MAX_NOTIFICATION_SERVICES_PER_ACCOUNT: { type: 'integer', minimum: 1, default: 100 },
  // The most a user token may set a project's quota and limits to, unless the admin API set the
  // account's own ceilings (PUT /api/v1/admin/accounts/:id).
  ACCOUNT_MAX_MONTHLY_QUOTA: { type: 'integer', minimum: 0, maximum: 2147483647, default: 1000000 },
  ACCOUNT_MAX_BURST_LIMIT: { type: 'integer', minimum: 1, maximum: 2147483647, default: 10000 },
  ACCOUNT_MAX_HOURLY_REQUEST_LIMIT: { type: 'integer', minimum: 1, maximum: 2147483647, default: 100000 },
  IDEMPOTENCY_TTL_SECONDS: { type: 'integer', minimum: 1, default: 86400 },
  MIGRATE_ON_START: { type: 'boolean', default: true },
  // Event ids held ahead: for EVENT_ID_RESERVE_SECONDS at this rate or the busiest second measured
  // lately, whichever is higher, so /ingest rides out a Postgres outage that long (README, Guarantees).
  EVENT_ID_RESERVE_MIN_RATE: { type: 'integer', minimum: 1, default: 1000 },
  EVENT_ID_RESERVE_SECONDS: { type: 'integer', minimum: 1, maximum: 3600, default: 15 },
} as const;

export type GatewayEnv = EnvOf<typeof properties>;

export function loadGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  return loadEnv<GatewayEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const gatewayEnvProperties: Record<string, object> = properties;
