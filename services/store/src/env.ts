import { commonEnvProperties, loadEnv } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  STORE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-store' },
  STORE_PARTITIONS_CONCURRENTLY: { type: 'integer', minimum: 1, default: 3 },
  // How long a crashed consumer keeps its partitions before the group moves them.
  STORE_SESSION_TIMEOUT_MS: { type: 'integer', minimum: 6000, default: 30000 },
  // Liveness/readiness and /metrics; 0 disables the listener.
  STORE_HTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9102 },
  STORE_HTTP_HOST: { type: 'string', default: '127.0.0.1' },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export interface StoreEnv {
  NODE_ENV: string;
  LOG_LEVEL: string;
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
  KAFKA_BROKERS: string;
  KAFKA_CLIENT_ID: string;
  TOPIC_EVENTS: string;
  TOPIC_EVENTS_DLQ: string;
  STORE_GROUP_ID: string;
  STORE_PARTITIONS_CONCURRENTLY: number;
  STORE_SESSION_TIMEOUT_MS: number;
  STORE_HTTP_PORT: number;
  STORE_HTTP_HOST: string;
  MIGRATE_ON_START: boolean;
}

export function loadStoreEnv(env: Record<string, string | undefined> = process.env): StoreEnv {
  return loadEnv<StoreEnv>(properties, env);
}
