import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import {
  createLogger,
  drainWithin,
  instrumentPool,
  kafkaBrokers,
  kafkaSecurity,
  batchSpan,
  startOpsServer,
  startTracing,
  warnOutboundPolicy,
  type Logger,
} from '@pulseboard/config';
import { deadLetterHeaders, parseAllowedTargets, TOPICS, type NotificationRequest, type TileChange } from '@pulseboard/contracts';
import { BatchingProducer, OK, consume, createKafka, eachMessage, ensureTopics, instrumentKafka, type Consuming } from '@pulseboard/kafka-kit';
import { loadNotificationTargets } from '@pulseboard/control-plane';
import { createPool, runMigrations } from '@pulseboard/db';
import { Dispatcher } from './dispatcher.ts';
import type { NotificationEnv } from './env.ts';
import { createNotificationMetrics } from './metrics.ts';
import { deliveryIntake, requestDelivery, transitionDeliveries } from './intake.ts';
import { insertClaimedDeliveries, queueDepth } from './repository.ts';
import { NotificationTargets } from './targets.ts';
import { createSenders } from './senders.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface NotificationService {
  httpAddress: string | undefined;
  stop(): Promise<void>;
}

/** Composition root: builds every dependency once and passes it down. */
export async function startNotificationService(
  env: NotificationEnv,
  logger: Logger = createLogger('notification', env.LOG_LEVEL),
): Promise<NotificationService> {
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'notification', logger });
  const tracing = await startTracing('notification', env);
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-notification' });
  const metrics = createNotificationMetrics();
  instrumentPool(metrics.registry, pool);
  metrics.watchQueue(() => queueDepth(pool));
  const kafka = createKafka({
    clientId: `${env.KAFKA_CLIENT_ID}-notification`,
    brokers: kafkaBrokers(env.KAFKA_BROKERS),
    logger,
    security: kafkaSecurity(env),
  });
  const kafkaSignals = instrumentKafka(kafka, metrics.registry, {
    lagging: [
      { groupId: env.NOTIFICATION_GROUP_ID, topic: env.TOPIC_TILE_CHANGES },
      { groupId: `${env.NOTIFICATION_GROUP_ID}-requests`, topic: env.TOPIC_NOTIFICATION_REQUESTS },
    ],
    watchedTopics: [env.TOPIC_NOTIFICATIONS_DLQ],
  });
  await ensureTopics(kafka, [
    TOPICS.tileChanges.spec(env.TOPIC_TILE_CHANGES),
    TOPICS.notificationRequests.spec(env.TOPIC_NOTIFICATION_REQUESTS),
    TOPICS.notificationOutcomes.spec(env.TOPIC_NOTIFICATION_OUTCOMES),
    TOPICS.notificationsDeadLetter.spec(env.TOPIC_NOTIFICATIONS_DLQ),
    TOPICS.control.spec(env.TOPIC_CONTROL),
  ]);
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  producer.start();
  // Bounded like the HTTP senders: a hung SMTP server must not outlast the delivery's lease.
  const transporter = nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: env.NOTIFY_CONNECT_TIMEOUT_MS,
    greetingTimeout: env.NOTIFY_CONNECT_TIMEOUT_MS,
    socketTimeout: env.NOTIFY_TIMEOUT_MS,
  });
  const senders = createSenders(
    {
      policy: { allowPrivate: env.NOTIFY_ALLOW_PRIVATE, allowTargets: parseAllowedTargets(env.NOTIFY_ALLOW_TARGETS) },
      connectTimeoutMs: env.NOTIFY_CONNECT_TIMEOUT_MS,
      timeoutMs: env.NOTIFY_TIMEOUT_MS,
      maxResponseBytes: env.NOTIFY_MAX_RESPONSE_BYTES,
    },
    { transporter, from: env.SMTP_FROM },
  );
  const dispatcher = new Dispatcher({
    env,
    pool,
    logger,
    metrics,
    senders,
    publishOutcome: (outcome) => producer.send(env.TOPIC_NOTIFICATION_OUTCOMES, TOPICS.notificationOutcomes.encode(outcome)),
    deadLetter: (d, error) =>
      producer.send(
        env.TOPIC_NOTIFICATIONS_DLQ,
        TOPICS.notificationsDeadLetter.encode({
          delivery_id: d.id,
          service_id: d.service_id,
          kind: d.kind,
          payload: d.payload,
          attempts: d.attempts + 1,
          last_error: error,
          created_at: d.created_at.toISOString(),
        }),
      ),
  });

  // New deliveries: written already claimed and sent at once, in slices the dispatcher has room for (intake.ts).
  const createAndSend = deliveryIntake({
    sliceSize: env.NOTIFY_CONCURRENCY,
    reserve: (count) => dispatcher.reserve(count),
    release: (count) => dispatcher.release(count),
    insertClaimed: (rows) => insertClaimedDeliveries(pool, rows, env.NOTIFY_LEASE_MS),
    sendClaimed: (fresh, reserved) => dispatcher.sendClaimed(fresh, reserved),
    onCreated: (count) => metrics.created.inc(count),
  });

  // The tiles' attached services, kept in memory (targets.ts): the feed first, then the snapshot, so no
  // change committed in between passes unseen; the revision each tile change carries covers the rest.
  const targets = new NotificationTargets(
    (keys) => loadNotificationTargets(pool, keys),
    (reason) => metrics.targetReads.inc({ reason }),
  );
  const control = await consume({
    kafka,
    logger,
    topic: env.TOPIC_CONTROL,
    group: { fanOut: `${env.NOTIFICATION_GROUP_ID}-control` },
    offsets: 'none',
    decode: TOPICS.control.decode,
    handler: eachMessage((change) => targets.catchUp(change.project_key, change.revision)),
  });
  await Promise.race([control.whenReady(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  await targets.refreshAll('snapshot');
  const poll = setInterval(
    () => void targets.refreshAll('poll').catch((error: unknown) => logger.warn({ event: 'notification_targets_refresh_failed', err: error })),
    env.NOTIFICATION_TARGETS_POLL_MS,
  );
  poll.unref();

  // Status transitions (not value-only changes) become one delivery per service the tile names (intake.ts).
  const deadLetter = { producer, topic: env.TOPIC_NOTIFICATIONS_DLQ, headers: deadLetterHeaders };
  const transitions: Consuming = await consume<TileChange>({
    kafka,
    logger,
    group: env.NOTIFICATION_GROUP_ID,
    topic: env.TOPIC_TILE_CHANGES,
    offsets: 'kafka',
    deadLetter,
    decode: TOPICS.tileChanges.decode,
    sessionTimeoutMs: env.NOTIFICATION_SESSION_TIMEOUT_MS,
    gatherMs: env.NOTIFICATION_GATHER_MS,
    // A span per batch (tracing on), the child of its first change's trace and linked to the others'.
    trace: batchSpan(tracing, 'notification transitions', { 'messaging.destination.name': env.TOPIC_TILE_CHANGES }),
    handler: async (messages) => {
      await createAndSend(await transitionDeliveries(messages, targets));
      return messages.map(() => OK);
    },
  });
  // Messages the API asked for (send_message, send): a delivery each, tried at once.
  const requests: Consuming = await consume<NotificationRequest>({
    kafka,
    logger,
    group: `${env.NOTIFICATION_GROUP_ID}-requests`,
    topic: env.TOPIC_NOTIFICATION_REQUESTS,
    offsets: 'kafka',
    deadLetter,
    decode: TOPICS.notificationRequests.decode,
    sessionTimeoutMs: env.NOTIFICATION_SESSION_TIMEOUT_MS,
    handler: async (messages) => {
      await createAndSend(messages.map(({ value }) => requestDelivery(value)));
      return messages.map(() => OK);
    },
  });
  dispatcher.start();

  const ops =
    env.NOTIFICATION_HTTP_PORT === 0
      ? undefined
      : await startOpsServer({
          port: env.NOTIFICATION_HTTP_PORT,
          host: env.NOTIFICATION_HTTP_HOST,
          registry: metrics.registry,
          readiness: () => ({ kafka_group: kafkaSignals.joined() }),
        });
  warnOutboundPolicy(env, logger);
  logger.info({
    event: 'notification_started',
    group: env.NOTIFICATION_GROUP_ID,
    allow_targets: env.NOTIFY_ALLOW_TARGETS,
    allow_private: env.NOTIFY_ALLOW_PRIVATE,
  });

  let stopping: Promise<void> | undefined;
  return {
    httpAddress: ops?.address,
    stop() {
      // Order: no new deliveries, let the tries under way finish and be recorded, then close.
      clearInterval(poll);
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'notification', [
        ['transitions', () => transitions.stop()],
        ['control_feed', () => control.stop()],
        ['requests', () => requests.stop()],
        ['dispatcher', () => dispatcher.stop()],
        ['producer', () => producer.stop()],
        ['smtp', () => transporter.close()],
        ['kafka_signals', () => kafkaSignals.stop()],
        ['postgres', () => pool.end()],
        ['ops_http', () => ops?.close()],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
