import { commonEnvProperties, loadEnv, outboundEnvProperties, type EnvOf, secretsEnvProperties } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  ...secretsEnvProperties,
  NOTIFICATION_GROUP_ID: {
    type: 'string',
    minLength: 1,
    default: 'pulseboard-notification',
    description: 'Kafka consumer group of the notification instances.',
  },
  NOTIFICATION_SESSION_TIMEOUT_MS: {
    type: 'integer',
    minimum: 6000,
    default: 30000,
    description: 'How long a crashed instance keeps its partitions before the group moves them.',
  },
  // Time-bounded batching (kafka-kit FetchPacer): unpaced, the service fetched once per change. A tile's
  // transitions gathered together still go to a receiver one after the other, in order (dispatcher.ts).
  NOTIFICATION_GATHER_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 100,
    description:
      "While tile changes flow, fetches are this far apart, so one fetch and one insert serve this long's changes; adds up to this much to delivery latency.",
  },
  NOTIFICATION_TARGETS_POLL_MS: {
    type: 'integer',
    minimum: 1000,
    default: 60000,
    description:
      "Safety net only: how often every project's attached services are read again (changes arrive through the control topic and, by order, with each tile change).",
  },
  NOTIFY_FIRST_RETRY_MS: {
    type: 'integer',
    minimum: 10,
    default: 1000,
    description: 'First retry of a failed delivery after about this long; each next one doubles, with jitter.',
  },
  NOTIFY_MAX_BACKOFF_MS: { type: 'integer', minimum: 10, default: 3600000, description: 'Longest wait between two retries of a delivery.' },
  NOTIFY_RETRY_FOR_MS: {
    type: 'integer',
    minimum: 0,
    default: 86400000,
    description: 'A delivery still failing this long after its first attempt fails for good (dead-lettered).',
  },
  NOTIFY_LEASE_MS: {
    type: 'integer',
    minimum: 100,
    default: 30000,
    description: 'A claimed delivery whose sender died mid-send is tried again (with the same webhook-id) after this long.',
  },
  NOTIFY_POLL_MS: {
    type: 'integer',
    minimum: 10,
    default: 200,
    description: 'The delivery schedule is read when its next delivery falls due, but no more often than this.',
  },
  NOTIFY_IDLE_POLL_MS: {
    type: 'integer',
    minimum: 10,
    default: 5000,
    description: 'The delivery schedule is read at least this often: how late another instance picks up the retries of one that died.',
  },
  NOTIFY_CONCURRENCY: {
    type: 'integer',
    minimum: 1,
    default: 128,
    description: 'Deliveries sent at once per worker: new ones, and again per claim of due retries.',
  },
  // Two: on 2 cores bench:notify's capacity was highest with two loops.
  NOTIFY_WORKERS: { type: 'integer', minimum: 1, maximum: 16, default: 2, description: 'Claim-send-record loops side by side in one instance.' },
  NOTIFY_CONNECT_TIMEOUT_MS: { type: 'integer', minimum: 10, default: 5000, description: 'Connection timeout of a webhook, Slack or SMTP delivery.' },
  NOTIFY_TIMEOUT_MS: { type: 'integer', minimum: 10, default: 10000, description: 'Whole-request timeout of a webhook, Slack or SMTP delivery.' },
  NOTIFY_MAX_RESPONSE_BYTES: {
    type: 'integer',
    minimum: 0,
    default: 65536,
    description: "Bytes of a receiver's response read (and kept as the attempt's answer) at most.",
  },
  // Outbound safety (SSRF): only global unicast targets unless loopback or private ones are allowed.
  ...outboundEnvProperties,
  SMTP_URL: {
    type: 'string',
    minLength: 1,
    default: 'smtp://127.0.0.1:1025',
    description: 'SMTP server of email notifications (smtp:// or smtps://, credentials in the URL).',
  },
  SMTP_FROM: { type: 'string', minLength: 3, default: 'Pulseboard <pulseboard@localhost>', description: 'From address of email notifications.' },
  NOTIFICATION_HTTP_PORT: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 9104,
    description: 'Port of /healthz, /readyz and /metrics; 0 disables the listener.',
  },
  NOTIFICATION_HTTP_HOST: { type: 'string', default: '127.0.0.1', description: 'Address of the health and metrics listener.' },
  MIGRATE_ON_START: {
    type: 'boolean',
    default: true,
    description: "Apply the service's own migrations at start (the Helm chart sets false and runs them in a pre-install/pre-upgrade Job).",
  },
} as const;

export type NotificationEnv = EnvOf<typeof properties>;

export function loadNotificationEnv(env: Record<string, string | undefined> = process.env): NotificationEnv {
  return loadEnv<NotificationEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const notificationEnvProperties: Record<string, object> = properties;
