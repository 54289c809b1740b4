import envSchema from 'env-schema';
import { PulseboardError, TOPICS } from '@pulseboard/contracts';
import { secretWeakness } from './secrets.ts';
import { tracingEnvProperties } from './tracing.ts';
import { shutdownEnvProperties } from './lifecycle.ts';
import { kafkaSecurityEnvProperties, kafkaSecurityKeyword } from './kafka-security.ts';

/** Env properties every service shares; each service spreads these into its one schema. */
export const commonEnvProperties = {
  LOG_LEVEL: {
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    description: 'Least severe level logged (pino, one JSON object per line on stdout).',
  },
  DATABASE_URL: {
    type: 'string',
    minLength: 1,
    default: 'postgres://postgres@127.0.0.1:5432/pulseboard',
    description: 'PostgreSQL connection string. Holds a password in production: set it from a Secret.',
  },
  DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, default: 10, description: "Connections in the service's Postgres pool." },
  KAFKA_BROKERS: { type: 'string', minLength: 1, default: '127.0.0.1:9092', description: 'Kafka bootstrap brokers, comma-separated host:port.' },
  KAFKA_CLIENT_ID: {
    type: 'string',
    minLength: 1,
    default: 'pulseboard',
    description: 'Client id the service gives the Kafka brokers (their logs and quotas name it).',
  },
  TOPIC_EVENTS: { type: 'string', minLength: 1, default: TOPICS.events.name, description: 'Topic of accepted events (key: project key); see docs/topics.md.' },
  TOPIC_EVENTS_DLQ: {
    type: 'string',
    minLength: 1,
    default: TOPICS.eventsDeadLetter.name,
    description: 'Dead-letter topic of event messages a consumer could not decode or apply.',
  },
  TOPIC_TILE_CHANGES: {
    type: 'string',
    minLength: 1,
    default: TOPICS.tileChanges.name,
    description: 'Topic of tile changes, relayed by the rule engine, read by broadcast and notification.',
  },
  TOPIC_TILE_REPLACEMENTS: {
    type: 'string',
    minLength: 1,
    default: TOPICS.tileReplacements.name,
    description:
      "Topic of tiles whose history an applied replay replaced, relayed by the rule engine, read by broadcast (dashboards read the tile's history again).",
  },
  TOPIC_RULE_OUTCOMES: {
    type: 'string',
    minLength: 1,
    default: TOPICS.ruleOutcomes.name,
    description: 'Topic of rule outcomes (`tiles_affected`) that webhook requests wait for.',
  },
  TOPIC_CONTROL: {
    type: 'string',
    minLength: 1,
    default: TOPICS.control.name,
    description: 'Compacted topic of control-plane changes (projects, keys, tiles) that every service follows.',
  },
  TOPIC_NOTIFICATION_REQUESTS: {
    type: 'string',
    minLength: 1,
    default: TOPICS.notificationRequests.name,
    description: 'Topic of notification send requests from the API to the notification service.',
  },
  TOPIC_NOTIFICATION_OUTCOMES: {
    type: 'string',
    minLength: 1,
    default: TOPICS.notificationOutcomes.name,
    description: 'Topic of what became of each notification send request.',
  },
  TOPIC_NOTIFICATIONS_DLQ: {
    type: 'string',
    minLength: 1,
    default: TOPICS.notificationsDeadLetter.name,
    description: 'Dead-letter topic of notification deliveries that failed for good.',
  },
  BODY_LIMIT_BYTES: {
    type: 'integer',
    minimum: 1024,
    default: 1048576,
    description: 'Largest request body the gateway accepts (413 above); every service sizes the events topics from it.',
  },
  EVENT_RETENTION_DAYS: {
    type: 'integer',
    minimum: 1,
    maximum: 400,
    default: 30,
    description: 'Days an event is kept unless its project sets `retention_days`: the gateway refuses older timestamps, the store drops what has aged out.',
  },
  ...kafkaSecurityEnvProperties,
  ...tracingEnvProperties,
  ...shutdownEnvProperties,
} as const;

/**
 * The key that seals stored notification secrets (webhook URLs and signing secrets, Slack URLs),
 * shared by the gateway and the notification service. No default: a strong value of the operator's
 * own, or the service does not start (`strongSecret`). During a rotation SECRETS_KEY_PREVIOUS is the
 * old key, still accepted for reading until `pnpm secrets:rotate` has re-sealed every row.
 */
export const secretsEnvProperties = {
  SECRETS_KEY: {
    type: 'string',
    strongSecret: true,
    description:
      'Key that seals stored notification secrets (webhook URLs and signing secrets, Slack URLs). Required, 32+ random bytes; a short, repetitive, published or placeholder value stops the service. Keep it: sealed rows need it (SECURITY.md).',
  },
  SECRETS_KEY_PREVIOUS: {
    type: 'string',
    strongSecret: 'or-empty',
    default: '',
    description:
      'The previous SECRETS_KEY during a rotation, still accepted for reading until `pnpm secrets:rotate` has re-sealed every row. Empty outside a rotation.',
  },
} as const;

/**
 * Outbound targets (notification URLs) besides global unicast addresses: the gateway refuses
 * literal addresses at creation and the notification service checks every connection by the
 * same rule. Development settings (a warning is logged at start when set): loopback for local
 * receivers; private (RFC 1918, 100.64/10, fc00::/7) for receivers on your own network.
 */
export const outboundEnvProperties = {
  NOTIFY_ALLOW_TARGETS: {
    type: 'string',
    default: '',
    maxLength: 2000,
    description:
      'Tests and development only: exact notification targets allowed although loopback or private, comma-separated `address:port` with IP literals (`127.0.0.1:4567,[::1]:4568`); only a target URL naming that address and port matches, never a name such as localhost, never a range. Empty (the default): none (a warning is logged at start otherwise).',
  },
  NOTIFY_ALLOW_PRIVATE: {
    type: 'boolean',
    default: false,
    description: 'Development only: allow notification targets on private networks (RFC 1918, 100.64/10, fc00::/7; a warning is logged at start).',
  },
} as const;

export const redisEnvProperties = {
  REDIS_URL: {
    type: 'string',
    minLength: 1,
    default: 'redis://127.0.0.1:6379',
    description: 'Redis of the limiter, idempotency keys and project revisions; with REDIS_CLUSTER_NODES only its credentials are used.',
  },
  REDIS_CLUSTER_NODES: {
    type: 'string',
    default: '',
    pattern: '^\\s*$|^\\s*(\\[[^\\]]+\\]|[^\\s,\\[\\]]+):\\d+\\s*(,\\s*(\\[[^\\]]+\\]|[^\\s,\\[\\]]+):\\d+\\s*)*$',
    description: 'Seed nodes of a Redis Cluster, comma-separated host:port; empty for the single Redis of REDIS_URL.',
  },
} as const;

/**
 * `strongSecret: true` on a property: the value must pass `secretWeakness`
 * (`'or-empty'`: or be empty, for an optional secret). A keyword rather than a
 * check after loading, so its errors come with all the others, at once.
 */
type Ajv = Parameters<Extract<NonNullable<envSchema.EnvSchemaOpt['ajv']>, { customOptions: unknown }>['customOptions']>[0];

function withSecretKeyword(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'strongSecret',
    type: 'string',
    schemaType: ['boolean', 'string'],
    errors: true,
    validate: function strongSecret(mode: boolean | string, value: string) {
      if (mode === false || (mode === 'or-empty' && value === '')) return true;
      const why = secretWeakness(value);
      if (why === undefined) return true;
      (strongSecret as unknown as { errors: object[] }).errors = [{ keyword: 'strongSecret', message: why, params: {} }];
      return false;
    },
  });
  return ajv;
}

type EnvValue<S> = S extends { type: 'integer' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { enum: readonly (infer E)[] }
      ? E
      : string;

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
      data: [env],
      env: false,
      // env-schema's own ajv already reports every error at once (allErrors) and coerces strings.
      dotenv: false,
      ajv: { customOptions: (ajv: Ajv) => withSecretKeyword(ajv).addKeyword(kafkaSecurityKeyword) },
    });
  } catch (error) {
    throw new PulseboardError('invalid_configuration', { message: `invalid environment: ${(error as Error).message}`, cause: error });
  }
}

export function kafkaBrokers(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
}
