import envSchema from 'env-schema';
import { PulseboardError, TOPICS } from '@pulseboard/contracts';

/** Env properties every service shares; each service spreads these into its one schema. */
export const commonEnvProperties = {
  LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  DATABASE_URL: { type: 'string', minLength: 1, default: 'postgres://postgres@127.0.0.1:5432/pulseboard' },
  DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, default: 10 },
  KAFKA_BROKERS: { type: 'string', minLength: 1, default: '127.0.0.1:9092' },
  KAFKA_CLIENT_ID: { type: 'string', minLength: 1, default: 'pulseboard' },
  TOPIC_EVENTS: { type: 'string', minLength: 1, default: TOPICS.events.name },
  TOPIC_EVENTS_DLQ: { type: 'string', minLength: 1, default: TOPICS.eventsDeadLetter.name },
  TOPIC_TILE_CHANGES: { type: 'string', minLength: 1, default: TOPICS.tileChanges.name },
  TOPIC_RULE_OUTCOMES: { type: 'string', minLength: 1, default: TOPICS.ruleOutcomes.name },
  TOPIC_NOTIFICATION_REQUESTS: { type: 'string', minLength: 1, default: TOPICS.notificationRequests.name },
  TOPIC_NOTIFICATION_OUTCOMES: { type: 'string', minLength: 1, default: TOPICS.notificationOutcomes.name },
  TOPIC_NOTIFICATIONS_DLQ: { type: 'string', minLength: 1, default: TOPICS.notificationsDeadLetter.name },
  // Seals stored secrets (webhook secrets, Slack URLs); the gateway and the notification service share it.
  // The default is for development only: set your own in production.
  SECRETS_KEY: { type: 'string', minLength: 16, default: 'pulseboard-development-secrets-key' },
  // The gateway's request body limit; every service sizes the events topics from it.
  BODY_LIMIT_BYTES: { type: 'integer', minimum: 1024, default: 1048576 },
  // Days an event is kept (CONTRACT Events, Retention) unless its project sets `retention_days`:
  // the gateway refuses older timestamps, the store drops what has aged out.
  EVENT_RETENTION_DAYS: { type: 'integer', minimum: 1, maximum: 400, default: 30 },
} as const;

export const redisEnvProperties = {
  REDIS_URL: { type: 'string', minLength: 1, default: 'redis://127.0.0.1:6379' },
  // Seed nodes of a Redis Cluster, comma-separated host:port; empty for the single Redis of REDIS_URL.
  REDIS_CLUSTER_NODES: { type: 'string', default: '', pattern: '^\\s*$|^\\s*(\\[[^\\]]+\\]|[^\\s,\\[\\]]+):\\d+\\s*(,\\s*(\\[[^\\]]+\\]|[^\\s,\\[\\]]+):\\d+\\s*)*$' },
} as const;

type EnvValue<S> = S extends { type: 'integer' | 'number' } ? number : S extends { type: 'boolean' } ? boolean : S extends { enum: readonly (infer E)[] } ? E : string;

/** The typed environment an env schema yields: derived from the schema, not written twice. */
export type EnvOf<P extends Record<string, object>> = { -readonly [K in keyof P]: EnvValue<P[K]> };

/**
 * Validates the environment against one schema at start-up and reports every
 * problem at once (ajv allErrors), instead of failing on the first.
 */
export function loadEnv<T>(properties: Record<string, object>, env: Record<string, string | undefined> = process.env): T {
  const schema = { type: 'object', properties, required: Object.keys(properties) };
  try {
    return envSchema<T>({
      schema,
      data: [env as Record<string, unknown>],
      env: false,
      // env-schema's own ajv already reports every error at once (allErrors) and coerces strings.
      dotenv: false,
    });
  } catch (error) {
    throw new PulseboardError('invalid_configuration', { message: `invalid environment: ${(error as Error).message}`, cause: error });
  }
}

export function kafkaBrokers(value: string): string[] {
  return value.split(',').map((b) => b.trim()).filter((b) => b !== '');
}
