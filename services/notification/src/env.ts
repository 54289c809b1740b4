import { commonEnvProperties, loadEnv, outboundEnvProperties, type EnvOf, secretsEnvProperties } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  ...secretsEnvProperties,
  NOTIFICATION_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-notification' },
  NOTIFICATION_SESSION_TIMEOUT_MS: { type: 'integer', minimum: 6000, default: 30000 },
  // Time-bounded batching of tile changes (kafka-kit FetchPacer): while changes flow, fetches are this far
  // apart, so one fetch and one insert serve this long's changes (unpaced, the service fetched once per
  // change: 77 fetches/s at 100 events/s). A tile's transitions gathered together still go to a
  // receiver one after the other, in order (dispatcher.ts). At most this much more delivery latency.
  NOTIFICATION_GATHER_MS: { type: 'integer', minimum: 0, maximum: 1000, default: 100 },
  // A safety net only: how often every project's attached services are read again. Changes reach the
  // cache through the control topic and, by order, through the revision each tile change carries.
  NOTIFICATION_TARGETS_POLL_MS: { type: 'integer', minimum: 1000, default: 60000 },
  // Retries: first after about NOTIFY_FIRST_RETRY_MS, doubling with jitter, capped; given up after NOTIFY_RETRY_FOR_MS.
  NOTIFY_FIRST_RETRY_MS: { type: 'integer', minimum: 10, default: 1000 },
  NOTIFY_MAX_BACKOFF_MS: { type: 'integer', minimum: 10, default: 3600000 },
  NOTIFY_RETRY_FOR_MS: { type: 'integer', minimum: 0, default: 86400000 },
  // A claimed delivery is tried again after this if its sender died mid-send (the crash window).
  NOTIFY_LEASE_MS: { type: 'integer', minimum: 100, default: 30000 },
  // The delivery schedule is read when its next delivery falls due, at most every NOTIFY_POLL_MS, and at least
  // every NOTIFY_IDLE_POLL_MS (how late a crashed instance's retries are picked up by another, past their time).
  NOTIFY_POLL_MS: { type: 'integer', minimum: 10, default: 200 },
  NOTIFY_IDLE_POLL_MS: { type: 'integer', minimum: 10, default: 5000 },
  // Deliveries sent at once per instance: new ones (written already claimed), and again per claim of due retries.
  NOTIFY_CONCURRENCY: { type: 'integer', minimum: 1, default: 128 },
  // Claim-send-record loops side by side (bench:notify capacity on 2 cores: 1 → 5.1k, 2 → 6.1k, 3 → 5.6k deliveries/s).
  NOTIFY_WORKERS: { type: 'integer', minimum: 1, maximum: 16, default: 2 },
  NOTIFY_CONNECT_TIMEOUT_MS: { type: 'integer', minimum: 10, default: 5000 },
  NOTIFY_TIMEOUT_MS: { type: 'integer', minimum: 10, default: 10000 },
  NOTIFY_MAX_RESPONSE_BYTES: { type: 'integer', minimum: 0, default: 65536 },
  // Outbound safety (SSRF): only global unicast targets unless loopback or private ones are allowed.
  ...outboundEnvProperties,
  SMTP_URL: { type: 'string', minLength: 1, default: 'smtp://127.0.0.1:1025' },
  SMTP_FROM: { type: 'string', minLength: 3, default: 'Pulseboard <pulseboard@localhost>' },
  NOTIFICATION_HTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9104 },
  NOTIFICATION_HTTP_HOST: { type: 'string', default: '127.0.0.1' },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export type NotificationEnv = EnvOf<typeof properties>;

export function loadNotificationEnv(env: Record<string, string | undefined> = process.env): NotificationEnv {
  return loadEnv<NotificationEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const notificationEnvProperties: Record<string, object> = properties;
