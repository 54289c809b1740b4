import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createLogger, kafkaBrokers, type Logger } from '@pulseboard/config';
import { BatchingProducer, createKafka, ensureTopics, eventsTopicSpec } from '@pulseboard/kafka-kit';
import { createPool, runMigrations } from '@pulseboard/db';
import type { GatewayEnv } from './env.ts';
import type { GatewayDeps } from './deps.ts';
import { buildApp } from './app.ts';
import { Authenticator } from './auth/authenticator.ts';
import { ProjectDirectory, type LimitDefaults } from './auth/project-directory.ts';
import { Limiter } from './limits/limiter.ts';
import { EventIdAllocator } from './ingest/event-id-allocator.ts';
import { EventPipeline } from './ingest/event-pipeline.ts';
import { createEnvelopeValidator } from './ingest/envelope-validator.ts';
import { createGatewayMetrics } from './metrics.ts';
import { createRedisClient } from './redis-client.ts';
import { IdempotencyStore } from './ingest/idempotency.ts';
import { nextEventIdBlock } from './repositories/event-ids.ts';
import { monthlyUsageLoader } from './repositories/monthly-usage.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface GatewayService {
  app: FastifyInstance;
  url: string;
  deps: GatewayDeps;
  stop(): Promise<void>;
}

export interface GatewayOverrides {
  logger?: Logger;
  /** Injectable clock (window roll-over tests). */
  now?: () => number;
  /** Skip the topic check at start (a test whose broker is deliberately unreachable). */
  skipTopicCheck?: boolean;
}

/** Composition root: validates nothing itself (env is already checked), builds every dependency once. */
export async function startGateway(env: GatewayEnv, overrides: GatewayOverrides = {}): Promise<GatewayService> {
  const logger = overrides.logger ?? createLogger('gateway', env.LOG_LEVEL);
  const now = overrides.now ?? Date.now;
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'gateway', logger });
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-gateway' });
  const redis = createRedisClient(env);
  // Without a listener ioredis prints every failed reconnect to stderr; requests see 503s meanwhile.
  redis.on('error', (error: Error) => logger.warn({ event: 'redis_connection_error', err: error }));
  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-gateway`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger });
  if (overrides.skipTopicCheck !== true) {
    await ensureTopics(kafka, [eventsTopicSpec(env.TOPIC_EVENTS, env)]);
  }
  const metrics = createGatewayMetrics();
  const producer = new BatchingProducer({ kafka, logger, lingerMs: env.KAFKA_LINGER_MS, deliveryTimeoutMs: env.KAFKA_DELIVERY_TIMEOUT_MS, maxBatchBytes: env.KAFKA_BATCH_MAX_BYTES, lanes: env.KAFKA_PRODUCER_LANES, onProduceRequest: (messages) => metrics.kafkaProduceRequestMessages.observe(messages) });
  producer.start();

  const limitDefaults: LimitDefaults = {
    burst: env.DEFAULT_BURST_LIMIT,
    projectHourly: env.DEFAULT_PROJECT_HOURLY_LIMIT,
    accountHourly: env.DEFAULT_ACCOUNT_HOURLY_LIMIT,
    globalHourly: env.GLOBAL_HOURLY_LIMIT,
  };
  const directory = new ProjectDirectory(pool, redis, limitDefaults);
  const deps: GatewayDeps = {
    env,
    logger,
    pool,
    redis,
    limitDefaults,
    directory,
    auth: new Authenticator(directory, pool, redis),
    limiter: new Limiter(redis, monthlyUsageLoader(pool), now, (size) => metrics.limiterBatchOperations.observe(size)),
    pipeline: new EventPipeline(producer, new EventIdAllocator(() => nextEventIdBlock(pool)), env.TOPIC_EVENTS),
    validator: createEnvelopeValidator(),
    metrics,
    idempotency: new IdempotencyStore(redis, env.IDEMPOTENCY_TTL_SECONDS),
    kafkaReady: () => producer.ready,
    now,
  };
  const app = buildApp(deps);
  const address = await app.listen({ port: env.GATEWAY_PORT, host: env.GATEWAY_HOST });
  logger.info({ event: 'gateway_started', address });

  let stopping: Promise<void> | undefined;
  return {
    app,
    deps,
    url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
    stop() {
      // Stop accepting requests and let in-flight ones finish (they wait on Kafka),
      // then flush the producer, then close the stores they used.
      stopping ??= (async () => {
        await app.close();
        await producer.stop();
        await Promise.allSettled([pool.end(), redis.quit()]);
        logger.info({ event: 'gateway_stopped' });
      })();
      return stopping;
    },
  };
}
