import {
  commonEnvProperties,
  loadEnv,
  outboundEnvProperties,
  proxyEnvProperties,
  type EnvOf,
  redisEnvProperties,
  secretsEnvProperties,
} from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  ...redisEnvProperties,
  ...secretsEnvProperties,
  // Notification target URLs with a literal address are refused at creation unless global unicast (or allowed here).
  ...outboundEnvProperties,
  // Client addresses behind an ingress and through broadcast's pass-through (TRUST_PROXY, INTERNAL_PROXY_SECRET).
  ...proxyEnvProperties,
  GATEWAY_PORT: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 8080,
    description: 'Port of the HTTP API: /ingest, /api/v1/*, /healthz, /readyz, /metrics.',
  },
  GATEWAY_HOST: { type: 'string', default: '0.0.0.0', description: 'Address the HTTP API listens on.' },
  ADMIN_TOKEN: {
    type: 'string',
    strongSecret: true,
    description:
      'Bearer token of the admin API (/api/v1/admin/*). Required, 32+ random bytes; a short, repetitive, published or placeholder value stops the service (SECURITY.md).',
  },
  // Environment defaults for the limits of spec section 8; projects and accounts may override.
  DEFAULT_BURST_LIMIT: { type: 'integer', minimum: 1, default: 100, description: 'Events a project may send per minute, unless the project sets its own.' },
  DEFAULT_PROJECT_HOURLY_LIMIT: {
    type: 'integer',
    minimum: 1,
    default: 1000,
    description: 'Requests a project may make per hour, unless the project sets its own.',
  },
  DEFAULT_ACCOUNT_HOURLY_LIMIT: {
    type: 'integer',
    minimum: 1,
    default: 5000,
    description: "Requests an account's projects may make per hour together, unless the account sets its own.",
  },
  GLOBAL_HOURLY_LIMIT: { type: 'integer', minimum: 1, default: 10000, description: 'Requests the whole deployment accepts per hour, all accounts together.' },
  DEFAULT_MONTHLY_QUOTA: {
    type: 'integer',
    minimum: 0,
    default: 10000,
    description: 'Events a project may send per calendar month (402 past it), unless the project sets its own.',
  },
  LIMIT_LEASES: {
    type: 'string',
    enum: ['on', 'off'],
    default: 'on',
    description:
      'on: each gateway takes leases of limit counters from Redis and decides from memory while they last (one Redis call per lease, not per request). Exact with one gateway; with several, a limit may be over-admitted by at most one lease of each gateway that crashed or lost Redis, and near a limit a request may be refused for up to 5 s while another gateway holds the last units (docs/api.md, Limits). off: every request is decided in Redis. Redis Cluster: always off.',
  },
  // Default 0: a 10 ms linger cuts the CPU per event at 1,000/s by about a fifth, but adds its wait to
  // every request while busy, past the `/ingest` p99 target (docs/performance.md, the knobs).
  KAFKA_LINGER_MS: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description:
      'How long an event may wait for others to share its produce request, only while requests come less than that apart (a trickle leaves on the next event-loop turn). 0: one event-loop turn. Fewer produce requests for some latency.',
  },
  KAFKA_DELIVERY_TIMEOUT_MS: {
    type: 'integer',
    minimum: 100,
    default: 5000,
    description:
      "How long a request waits for the broker's acknowledgement before answering 503 with Retry-After; a message not yet handed to Kafka by then is withdrawn.",
  },
  KAFKA_BATCH_MAX_BYTES: {
    type: 'integer',
    minimum: 1024,
    default: 921600,
    description: "Largest produce request that concurrent requests share (below the broker's 1 MiB default).",
  },
  // One: with a linger of one event-loop turn, a second lane added no batch throughput and took some
  // /ingest throughput; more may pay off with a broker further away.
  KAFKA_PRODUCER_LANES: {
    type: 'integer',
    minimum: 1,
    maximum: 16,
    default: 1,
    description: 'Produce requests in flight at once (one idempotent Kafka producer each).',
  },
  WEBHOOK_OUTCOME_TIMEOUT_MS: {
    type: 'integer',
    minimum: 0,
    default: 2000,
    description: "How long /api/v1/webhooks waits for the rule engine's `tiles_affected` before answering 202 without it; 0: never wait.",
  },
  NOTIFY_SEND_TIMEOUT_MS: {
    type: 'integer',
    minimum: 0,
    default: 10000,
    description: "How long POST /notifications/:id/send(_message) waits for the delivery's outcome before answering `pending`.",
  },
  BODY_MAX_JSON_VALUES: {
    type: 'integer',
    minimum: 1000,
    default: 100000,
    description: 'Most values (array items, object fields) a JSON body may hold; more is 413 before parsing.',
  },
  // Abuse limits (docs/read-api.md, Abuse limits).
  AUTH_FAILURES_PER_MINUTE: {
    type: 'integer',
    minimum: 1,
    default: 20,
    description:
      'Failed authentications a minute per client address and per key prefix (wrong admin tokens: per address). Past it a credential is looked up only when the valid-credential set knows it, so valid ones still get in; the rest are 429 (SECURITY.md, Failed authentications).',
  },
  NOTIFY_SENDS_PER_MINUTE: { type: 'integer', minimum: 1, default: 30, description: 'Notification sends through the API a minute per account before 429.' },
  MAX_TILES_PER_PROJECT: { type: 'integer', minimum: 1, default: 500, description: 'Most tiles one project may have.' },
  PREVIEW_TIME_LIMIT_MS: {
    type: 'integer',
    minimum: 100,
    maximum: 600000,
    default: 10000,
    description: 'POST /tiles/preview gives up (400) after reading events for this long.',
  },
  MAX_NOTIFICATION_SERVICES_PER_ACCOUNT: { type: 'integer', minimum: 1, default: 100, description: 'Most notification services one account may have.' },
  // The most a user token may set a project's quota and limits to, unless the admin API set the
  // account's own ceilings (PUT /api/v1/admin/accounts/:id).
  ACCOUNT_MAX_MONTHLY_QUOTA: {
    type: 'integer',
    minimum: 0,
    maximum: 2147483647,
    default: 1000000,
    description: "Highest monthly quota a user token may give a project, unless the admin API set the account's own ceiling.",
  },
  ACCOUNT_MAX_BURST_LIMIT: {
    type: 'integer',
    minimum: 1,
    maximum: 2147483647,
    default: 10000,
    description: "Highest burst limit a user token may give a project, unless the admin API set the account's own ceiling.",
  },
  ACCOUNT_MAX_HOURLY_REQUEST_LIMIT: {
    type: 'integer',
    minimum: 1,
    maximum: 2147483647,
    default: 100000,
    description: "Highest hourly request limit a user token may give a project, unless the admin API set the account's own ceiling.",
  },
  IDEMPOTENCY_TTL_SECONDS: {
    type: 'integer',
    minimum: 1,
    default: 86400,
    description: 'How long an Idempotency-Key is remembered: a retry with the same key within it gets the first response back.',
  },
  MIGRATE_ON_START: {
    type: 'boolean',
    default: true,
    description: "Apply the service's own migrations at start (the Helm chart sets false and runs them in a pre-install/pre-upgrade Job).",
  },
  EVENT_ID_RESERVE_MIN_RATE: {
    type: 'integer',
    minimum: 1,
    default: 1000,
    description: 'Event ids held ahead cover EVENT_ID_RESERVE_SECONDS at this rate (events/s) or at the busiest recent second, whichever is higher.',
  },
  EVENT_ID_RESERVE_SECONDS: {
    type: 'integer',
    minimum: 1,
    maximum: 3600,
    default: 15,
    description: 'Seconds of event ids held ahead: how long /ingest rides out a Postgres outage.',
  },
} as const;

export type GatewayEnv = EnvOf<typeof properties>;

export function loadGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  return loadEnv<GatewayEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const gatewayEnvProperties: Record<string, object> = properties;
