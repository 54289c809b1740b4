import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createLogger, drainWithin, instrumentPool, kafkaBrokers, kafkaSecurity, startTracing, warnOutboundPolicy, type Logger } from '@pulseboard/config';
import { closeHttpWithin } from './http-close.ts';
import { BatchingProducer, consume, createKafka, eachMessage, endOffsetsReader, ensureTopics, OutboxRelay, type Consuming } from '@pulseboard/kafka-kit';
import { TOPICS, type RuleOutcome } from '@pulseboard/contracts';
import { createPool, outboxSource, runMigrations } from '@pulseboard/db';
import type { GatewayEnv } from './env.ts';
import type { GatewayDeps } from './deps.ts';
import { projectFreshness } from './freshness.ts';
import { buildApp } from './app.ts';
import { Authenticator } from './auth/authenticator.ts';
import { AuthThrottle } from './auth/auth-throttle.ts';
import { CredentialSet } from './auth/credential-set.ts';
import { FixedWindowCounter } from './limits/fixed-window.ts';
import { ProjectDirectory, type LimitDefaults } from './auth/project-directory.ts';
import { createGatewayLimiter } from './limits/create-limiter.ts';
import { EventIdAllocator } from './ingest/event-id-allocator.ts';
import { EventPipeline } from './ingest/event-pipeline.ts';
import { createEnvelopeValidator } from './ingest/envelope-validator.ts';
import { createGatewayMetrics } from './metrics.ts';
import { createRedisClient } from './redis-client.ts';
import { IdempotencyStore } from './ingest/idempotency.ts';
import { ReplyWaiter } from './ingest/reply-waiter.ts';
import type { NotificationOutcome } from '@pulseboard/contracts';
import { nextEventIdBlocks } from './repositories/event-ids.ts';
import { monthlyUsageLoader } from '@pulseboard/event-store';
import { CONTROL_OUTBOX_PARTITION, CONTROL_OUTBOX_TABLE, type ControlFeed } from './repositories/control-writes.ts';
import { setRevision } from './auth/revision.ts';

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
  const tracing = await startTracing('gateway', env);
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'gateway', logger });
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-gateway', logger });
  const redis = createRedisClient(env);
  // Without a listener ioredis prints every failed reconnect to stderr; requests see 503s meanwhile.
  redis.on('error', (error: Error) => logger.warn({ event: 'redis_connection_error', err: error }));
  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-gateway`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger, security: kafkaSecurity(env) });
  if (overrides.skipTopicCheck !== true) {
    await ensureTopics(kafka, [
      TOPICS.events.spec(env.TOPIC_EVENTS, env),
      TOPICS.ruleOutcomes.spec(env.TOPIC_RULE_OUTCOMES),
      TOPICS.notificationRequests.spec(env.TOPIC_NOTIFICATION_REQUESTS),
      TOPICS.notificationOutcomes.spec(env.TOPIC_NOTIFICATION_OUTCOMES),
      TOPICS.control.spec(env.TOPIC_CONTROL),
    ]);
  }
  const notificationOutcomes = new ReplyWaiter<string, NotificationOutcome>();
  const notificationReader =
    overrides.skipTopicCheck === true
      ? undefined
      : await consume<NotificationOutcome>({
          kafka,
          logger,
          topic: env.TOPIC_NOTIFICATION_OUTCOMES,
          group: { fanOut: `${env.KAFKA_CLIENT_ID}-gateway-notifications` },
          offsets: 'none',
          decode: TOPICS.notificationOutcomes.decode,
          handler: eachMessage((outcome) => notificationOutcomes.receive(outcome.request_id, outcome)),
        });
  // Webhook requests wait for the rule engine's outcome; 0 turns the wait (and this reader) off.
  const ruleOutcomes = env.WEBHOOK_OUTCOME_TIMEOUT_MS > 0 ? new ReplyWaiter<number, number>() : undefined;
  let outcomesConsumer: Consuming | undefined;
  if (ruleOutcomes !== undefined && overrides.skipTopicCheck !== true) {
    outcomesConsumer = await consume<RuleOutcome>({
      kafka,
      logger,
      topic: env.TOPIC_RULE_OUTCOMES,
      group: { fanOut: `${env.KAFKA_CLIENT_ID}-gateway-outcomes` },
      offsets: 'none',
      decode: TOPICS.ruleOutcomes.decode,
      handler: eachMessage((outcome) => ruleOutcomes.receive(outcome.event_id, outcome.tiles_affected)),
    });
    // Until it has its partitions an outcome could pass unseen (the request would get 202): wait, bounded.
    await Promise.race([outcomesConsumer.whenReady(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  }
  const metrics = createGatewayMetrics();
  instrumentPool(metrics.registry, pool);
  const producer = new BatchingProducer({
    kafka,
    logger,
    lingerMs: env.KAFKA_LINGER_MS,
    lingerOnlyWhenBusy: true,
    deliveryTimeoutMs: env.KAFKA_DELIVERY_TIMEOUT_MS,
    maxBatchBytes: env.KAFKA_BATCH_MAX_BYTES,
    lanes: env.KAFKA_PRODUCER_LANES,
    onProduceRequest: (messages) => metrics.kafkaProduceRequestMessages.observe(messages),
  });
  producer.start();
  // Control-plane writes leave through the outbox; any gateway relays it (a repeat is harmless: readers compare revisions).
  const controlRelay = new OutboxRelay({
    producer,
    logger,
    sources: [outboxSource(pool, CONTROL_OUTBOX_TABLE, { topics: [env.TOPIC_CONTROL] })],
    partitions: () => [CONTROL_OUTBOX_PARTITION],
  });
  if (overrides.skipTopicCheck !== true) controlRelay.start();
  const controlFeed: ControlFeed = {
    topic: env.TOPIC_CONTROL,
    publishRevision: (projectKey, revision) => setRevision(redis, projectKey, revision),
    committed: () => controlRelay.notify(),
  };

  const limitDefaults: LimitDefaults = {
    burst: env.DEFAULT_BURST_LIMIT,
    projectHourly: env.DEFAULT_PROJECT_HOURLY_LIMIT,
    accountHourly: env.DEFAULT_ACCOUNT_HOURLY_LIMIT,
    globalHourly: env.GLOBAL_HOURLY_LIMIT,
    retentionDays: env.EVENT_RETENTION_DAYS,
  };
  const directory = new ProjectDirectory(pool, redis, limitDefaults);
  const credentials = new CredentialSet(redis, pool, logger);
  // Loaded before the first request when Redis has none (first start, Redis emptied). Redis being
  // down does not keep the gateway from starting (it answers 503 until Redis is back): the set
  // loads on the first throttled check that finds it missing.
  await credentials
    .ensureLoaded()
    .catch((err: unknown) => logger.warn({ event: 'credential_set_load_failed', err }, 'valid-credential set not loaded at start'));
  const throttle = new AuthThrottle(new FixedWindowCounter(redis, 'af', 60, now), env.AUTH_FAILURES_PER_MINUTE);
  const eventIds = new EventIdAllocator((blocks) => nextEventIdBlocks(pool, blocks), {
    minRatePerSecond: env.EVENT_ID_RESERVE_MIN_RATE,
    seconds: env.EVENT_ID_RESERVE_SECONDS,
  });
  await eventIds.fill();
  // Bounded below a request's patience: with Kafka away the route answers `unknown` within a second.
  const eventEnds = endOffsetsReader(kafka, env.TOPIC_EVENTS, { timeoutMs: 1000 });
  const limits = await createGatewayLimiter({
    leases: env.LIMIT_LEASES === 'on',
    redis,
    logger,
    loadMonthlyUsage: monthlyUsageLoader(pool),
    now,
    observeBatch: (size) => metrics.limiterBatchOperations.observe(size),
  });
  const deps: GatewayDeps = {
    env,
    logger,
    pool,
    redis,
    limitDefaults,
    directory,
    auth: new Authenticator(directory, pool, redis, throttle, { credentials, lookups: metrics.credentialLookups }),
    throttle,
    credentials,
    limiter: limits.limiter,
    pipeline: new EventPipeline(producer, eventIds, env.TOPIC_EVENTS),
    validator: createEnvelopeValidator(),
    metrics,
    idempotency: new IdempotencyStore(
      redis,
      env.IDEMPOTENCY_TTL_SECONDS,
      Math.ceil((env.KAFKA_DELIVERY_TIMEOUT_MS + env.WEBHOOK_OUTCOME_TIMEOUT_MS) / 1000) + 2,
    ),
    controlFeed,
    ...(ruleOutcomes === undefined ? {} : { ruleOutcomes }),
    requestNotification: (request) => producer.send(env.TOPIC_NOTIFICATION_REQUESTS, TOPICS.notificationRequests.encode(request)),
    notificationOutcomes,
    projectFreshness: projectFreshness(pool, env.TOPIC_EVENTS, eventEnds),
    kafkaReady: () => producer.ready,
    tracing,
    now,
  };
  const app = await buildApp(deps);
  const address = await app.listen({ port: env.GATEWAY_PORT, host: env.GATEWAY_HOST });
  warnOutboundPolicy(env, logger);
  logger.info({ event: 'gateway_started', address });

  let stopping: Promise<void> | undefined;
  return {
    app,
    deps,
    url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
    stop() {
      // Stop accepting requests and let in-flight ones finish (they wait on Kafka),
      // then flush the producer, then close the stores they used.
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'gateway', [
        // Half the bound for requests in flight; the producer's flush and the stores get the rest.
        ['http', () => closeHttpWithin(app, Math.floor(env.SHUTDOWN_TIMEOUT_MS / 2), logger)],
        ['rule_outcomes', () => outcomesConsumer?.stop()],
        ['notification_outcomes', () => notificationReader?.stop()],
        ['control_relay', () => controlRelay.stop()],
        ['producer', () => producer.stop()],
        // After the last request: what this gateway's leases left unspent goes back to Redis.
        ['limit_leases', () => limits.drain()],
        ['event_ends', () => eventEnds.stop()],
        ['stores', () => Promise.allSettled([pool.end(), redis.quit()])],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
