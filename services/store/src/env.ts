import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  STORE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-store', description: 'Kafka consumer group of the store instances.' },
  STORE_PARTITIONS_CONCURRENTLY: { type: 'integer', minimum: 1, default: 3, description: 'Partitions of a fetch the store writes side by side.' },
  // Time-bounded batching (kafka-kit FetchPacer); an idle store is not paced. 100 ms: a fetch's batches share
  // one transaction (kafka-kit combinePartitions), and nothing waits on storing but reads of the newest events.
  STORE_GATHER_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 100,
    description:
      "While events flow, the store's fetches are this far apart, so one transaction carries this long's events. Delays only storing (and reads of the newest events).",
  },
  STORE_MAX_BYTES_PER_PARTITION: {
    type: 'integer',
    minimum: 1024,
    default: 4194304,
    description: 'Bytes fetched per partition and batch; a batch is one transaction and one COPY.',
  },
  STORE_SESSION_TIMEOUT_MS: {
    type: 'integer',
    minimum: 6000,
    default: 30000,
    description: 'How long a crashed store keeps its partitions before the group moves them.',
  },
  STORE_HTTP_PORT: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 9102,
    description: 'Port of /healthz, /readyz and /metrics; 0 disables the listener.',
  },
  STORE_HTTP_HOST: { type: 'string', default: '127.0.0.1', description: 'Address of the health and metrics listener.' },
  STORE_PARTITIONS_AHEAD_DAYS: { type: 'integer', minimum: 2, maximum: 60, default: 7, description: 'Days of event partitions kept ready ahead of today.' },
  STORE_MAINTENANCE_INTERVAL_MS: {
    type: 'integer',
    minimum: 1000,
    default: 3600000,
    description: 'How often partitions are created ahead and retention is applied.',
  },
  MIGRATE_ON_START: {
    type: 'boolean',
    default: true,
    description: "Apply the service's own migrations at start (the Helm chart sets false and runs them in a pre-install/pre-upgrade Job).",
  },
} as const;

export type StoreEnv = EnvOf<typeof properties>;

export function loadStoreEnv(env: Record<string, string | undefined> = process.env): StoreEnv {
  return loadEnv<StoreEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const storeEnvProperties: Record<string, object> = properties;
