import { fileURLToPath } from 'node:url';
import {
  createLogger,
  drainWithin,
  instrumentPool,
  kafkaBrokers,
  kafkaSecurity,
  batchSpan,
  startOpsServer,
  startTracing,
  type Logger,
} from '@pulseboard/config';
import { deadLetterHeaders, TOPICS, type IngestedEvent } from '@pulseboard/contracts';
import { BatchingProducer, consume, createKafka, ensureTopics, instrumentKafka } from '@pulseboard/kafka-kit';
import { createPool, runMigrations } from '@pulseboard/db';
import type { StoreEnv } from './env.ts';
import { createEventsHandler } from './events-handler.ts';
import { createStoreMetrics } from './metrics.ts';
import { PartitionKeeper } from './partitions.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface StoreService {
  stop(): Promise<void>;
  /** Bound address of the health/metrics listener, when enabled. */
  httpAddress: string | undefined;
}

/** Composition root: builds every dependency once and passes it down. */
export async function startStoreService(
  env: StoreEnv,
  logger: Logger = createLogger('store', env.LOG_LEVEL),
  clock: () => number = Date.now,
): Promise<StoreService> {
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'store', logger });
  const tracing = await startTracing('store', env);
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-store' });
  const metrics = createStoreMetrics();
  instrumentPool(metrics.registry, pool);
  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-store`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger, security: kafkaSecurity(env) });
  const kafkaSignals = instrumentKafka(kafka, metrics.registry, {
    lagging: [{ groupId: env.STORE_GROUP_ID, topic: env.TOPIC_EVENTS }],
    watchedTopics: [env.TOPIC_EVENTS_DLQ],
  });
  await ensureTopics(kafka, [TOPICS.events.spec(env.TOPIC_EVENTS, env), TOPICS.eventsDeadLetter.spec(env.TOPIC_EVENTS_DLQ, env)]);
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  producer.start();
  const partitions = new PartitionKeeper({ pool, logger, clock, defaultRetentionDays: env.EVENT_RETENTION_DAYS, aheadDays: env.STORE_PARTITIONS_AHEAD_DAYS });
  // Today's and the coming days' partitions exist before the first batch.
  await partitions.start(env.STORE_MAINTENANCE_INTERVAL_MS);
  const events = createEventsHandler({ partitions, logger, metrics });
  const consumer = await consume<IngestedEvent>({
    kafka,
    logger,
    group: env.STORE_GROUP_ID,
    topic: env.TOPIC_EVENTS,
    offsets: 'postgres',
    postgres: { pool, table: 'store_offsets', handleAll: events.handleAll },
    deadLetter: { producer, topic: env.TOPIC_EVENTS_DLQ, headers: deadLetterHeaders },
    decode: TOPICS.events.decode,
    // A span per batch (tracing on): the child of its first event's trace, linked to the others'.
    trace: batchSpan(tracing, 'store events', { 'messaging.destination.name': env.TOPIC_EVENTS }),
    handler: (messages, { tx }) => events.handle(tx, messages),
    partitionsConsumedConcurrently: env.STORE_PARTITIONS_CONCURRENTLY,
    gatherMs: env.STORE_GATHER_MS,
    sessionTimeoutMs: env.STORE_SESSION_TIMEOUT_MS,
    maxBytesPerPartition: env.STORE_MAX_BYTES_PER_PARTITION,
  });

  // Ready once the consumer is in its group (a Postgres outage shows in the lag, not as a restart).
  const ops =
    env.STORE_HTTP_PORT === 0
      ? undefined
      : await startOpsServer({
          port: env.STORE_HTTP_PORT,
          host: env.STORE_HTTP_HOST,
          registry: metrics.registry,
          readiness: () => ({ kafka_group: kafkaSignals.joined() }),
        });
  logger.info({ event: 'store_started', topic: env.TOPIC_EVENTS, group: env.STORE_GROUP_ID });

  let stopping: Promise<void> | undefined;
  return {
    httpAddress: ops?.address,
    stop() {
      // Order: stop taking work, finish and commit the batch in hand, then close what it used.
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'store', [
        ['consumer', () => consumer.stop()],
        ['partitions', () => partitions.stop()],
        ['producer', () => producer.stop()],
        ['kafka_signals', () => kafkaSignals.stop()],
        ['postgres', () => pool.end()],
        ['ops_http', () => ops?.close()],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
