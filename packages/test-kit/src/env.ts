import { randomUUID } from 'node:crypto';
import { commonEnvProperties, generateSecret, redisEnvProperties } from '@pulseboard/config';

/** The services' default Postgres (where deploy/infra.sh starts it), with another database. */
export function localDatabaseUrl(database: string): string {
  const url = new URL(commonEnvProperties.DATABASE_URL.default);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The services' default Redis, with another logical database. */
export function localRedisUrl(database: number): string {
  const url = new URL(redisEnvProperties.REDIS_URL.default);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Where integration tests find the real infrastructure (started by deploy/infra.sh). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? localDatabaseUrl('pulseboard_test');
// Database 1: tests never touch the counters of a locally running demo (database 0).
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? localRedisUrl(1);
export const TEST_KAFKA_BROKERS = process.env.TEST_KAFKA_BROKERS ?? commonEnvProperties.KAFKA_BROKERS.default;
/**
 * Strong secrets generated once per run (services refuse weak ones). Kept in
 * process.env: the global setup loads this module before the workers start, so
 * every worker, and every service it spawns, shares the same values.
 */
export const TEST_ADMIN_TOKEN = (process.env.PULSEBOARD_TEST_ADMIN_TOKEN ??= generateSecret());
export const TEST_SECRETS_KEY = (process.env.PULSEBOARD_TEST_SECRETS_KEY ??= generateSecret());
export const TEST_INTERNAL_PROXY_SECRET = (process.env.PULSEBOARD_TEST_INTERNAL_PROXY_SECRET ??= generateSecret());

/** Topics of one test run share a prefix, so the run can delete what it created. */
export function testTopicPrefix(): string {
  return `test.${process.env.PULSEBOARD_TEST_RUN ?? 'adhoc'}.`;
}

/** A name no other test uses: each test gets its own topic, group and project. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Environment for a service under test, on its own topics. */
export function serviceTestEnv(extra: Record<string, string> = {}): Record<string, string> {
  const suffix = randomUUID().slice(0, 8);
  return {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    KAFKA_BROKERS: TEST_KAFKA_BROKERS,
    TOPIC_EVENTS: `${testTopicPrefix()}events.${suffix}`,
    TOPIC_EVENTS_DLQ: `${testTopicPrefix()}events.dlq.${suffix}`,
    TOPIC_TILE_CHANGES: `${testTopicPrefix()}tile-changes.${suffix}`,
    TOPIC_TILE_REPLACEMENTS: `${testTopicPrefix()}tile-replacements.${suffix}`,
    TOPIC_RULE_OUTCOMES: `${testTopicPrefix()}rule-outcomes.${suffix}`,
    TOPIC_CONTROL: `${testTopicPrefix()}control.${suffix}`,
    TOPIC_NOTIFICATION_REQUESTS: `${testTopicPrefix()}notification-requests.${suffix}`,
    TOPIC_NOTIFICATION_OUTCOMES: `${testTopicPrefix()}notification-outcomes.${suffix}`,
    TOPIC_NOTIFICATIONS_DLQ: `${testTopicPrefix()}notifications.dlq.${suffix}`,
    NOTIFICATION_GROUP_ID: `test-notification-${suffix}`,
    MIGRATE_ON_START: 'false',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: TEST_SECRETS_KEY,
    // Broadcast's pass-through shows it to the gateway, as in every shipped deployment.
    INTERNAL_PROXY_SECRET: TEST_INTERNAL_PROXY_SECRET,
    GATEWAY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    BROADCAST_PORT: '0',
    BROADCAST_HOST: '127.0.0.1',
    STORE_HTTP_PORT: '0',
    STORE_GROUP_ID: `test-store-${suffix}`,
    RULE_ENGINE_GROUP_ID: `test-rule-engine-${suffix}`,
    STORE_SESSION_TIMEOUT_MS: '6000',
    // The global and account counters are shared by every test in an hour; tests of those
    // limits set their own values (and a clock of their own).
    GLOBAL_HOURLY_LIMIT: '100000000',
    // Every test's client is 127.0.0.1 and the counters live in the shared Redis: the abuse
    // limits would let one test's deliberate bad credentials or sends refuse another's.
    // Their own test sets them (services/gateway/src/auth/abuse-limits.integration.test.ts).
    AUTH_FAILURES_PER_MINUTE: '100000000',
    BROADCAST_AUTH_FAILURES_PER_MINUTE: '100000000',
    NOTIFY_SENDS_PER_MINUTE: '100000000',
    // Most tests run no rule engine: webhooks answer 202 at once instead of after the bound.
    // Tests of tiles_affected run an engine and set the production bound.
    WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
    DEFAULT_ACCOUNT_HOURLY_LIMIT: '100000000',
    ...extra,
  };
}
