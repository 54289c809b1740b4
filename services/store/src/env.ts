import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  STORE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-store' },
  STORE_PARTITIONS_CONCURRENTLY: { type: 'integer', minimum: 1, default: 3 },
  // Time-bounded batching (kafka-kit FetchPacer): while events flow, fetches are this far apart, so a
  // transaction carries this long's events instead of one; an idle store is not paced. Only delays storing.
  // 100 ms: a fetch's batches share one transaction (kafka-kit combinePartitions), so a longer gather
  // fills it with more partitions' events; nothing waits on storing but reads of the newest events.
  STORE_GATHER_MS: { type: 'integer', minimum: 0, maximum: 1000, default: 100 },
  // Bytes fetched per partition and batch: a batch is one transaction (and one COPY).
  STORE_MAX_BYTES_PER_PARTITION: { type: 'integer', minimum: 1024, default: 4194304 },
  // How long a crashed consumer keeps its partitions before the group moves them.
  STORE_SESSION_TIMEOUT_MS: { type: 'integer', minimum: 6000, default: 30000 },
  // Liveness/readiness and /metrics; 0 disables the listener.
  STORE_HTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9102 },
  STORE_HTTP_HOST: { type: 'string', default: '127.0.0.1' },
  // Days of partitions kept ready ahead of today; how often partitions and retention are seen to.
  STORE_PARTITIONS_AHEAD_DAYS: { type: 'integer', minimum: 2, maximum: 60, default: 7 },
  STORE_MAINTENANCE_INTERVAL_MS: { type: 'integer', minimum: 1000, default: 3600000 },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export type StoreEnv = EnvOf<typeof properties>;

export function loadStoreEnv(env: Record<string, string | undefined> = process.env): StoreEnv {
  return loadEnv<StoreEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const storeEnvProperties: Record<string, object> = properties;
