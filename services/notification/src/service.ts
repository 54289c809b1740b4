import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { createLogger, drainWithin, instrumentPool, kafkaBrokers, messageTraceparents, startOpsServer, startTracing, traceBatch, warnOutboundPolicy, type Logger } from '@pulseboard/config';
import { deadLetterHeaders, PROJECT_REVISION_HEADER, TOPICS, type NotificationRequest, type TileChange } from '@pulseboard/contracts';
import { BatchingProducer, OK, createKafka, ensureTopics, instrumentKafka, runBatchConsumer, runFanOutConsumer, type ConsumedMessage, type Outcome, type RunningConsumer } from '@pulseboard/kafka-kit';
import { loadNotificationTargets } from '@pulseboard/control-plane';
import { createPool, runMigrations } from '@pulseboard/db';
import { Dispatcher } from './dispatcher.ts';
import type { NotificationEnv } from './env.ts';
import { createNotificationMetrics } from './metrics.ts';
import { insertClaimedDeliveries, queueDepth, type NewDelivery } from './repository.ts';
import { NotificationTargets } from './targets.ts';
import { createSenders } from './senders.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface NotificationService {
  httpAddress: string | undefined;
  stop(): Promise<void>;
}

/** The project revision a tile change carries (its rules', header pb-project-revision); 0 when absent. */
function revisionOf(header: Buffer | string | (Buffer | string)[] | undefined): number {
  const text = Array.isArray(header) ? header[0] : header;
  const revision = text === undefined ? 0 : Number(text.toString());
  return Number.isSafeInteger(revision) && revision > 0 ? revision : 0;
}

/** Composition root: builds every dependency once and passes it down. */
export async function startNotificationService(env: NotificationEnv, logger: Logger = createLogger('notification', env.LOG_LEVEL)): Promise<NotificationService> {
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'notification', logger });
  const tracing = await startTracing('notification', env);
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-notification' });
  const metrics = createNotificationMetrics();
  instrumentPool(metrics.registry, pool);
  metrics.watchQueue(() => queueDepth(pool));
  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-notification`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger });
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
  const transporter = nodemailer.createTransport({ url: env.SMTP_URL, connectionTimeout: env.NOTIFY_CONNECT_TIMEOUT_MS, greetingTimeout: env.NOTIFY_CONNECT_TIMEOUT_MS, socketTimeout: env.NOTIFY_TIMEOUT_MS });
  const senders = createSenders(
    { policy: { allowLoopback: env.NOTIFY_ALLOW_LOOPBACK, allowPrivate: env.NOTIFY_ALLOW_PRIVATE }, connectTimeoutMs: env.NOTIFY_CONNECT_TIMEOUT_MS, timeoutMs: env.NOTIFY_TIMEOUT_MS, maxResponseBytes: env.NOTIFY_MAX_RESPONSE_BYTES },
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
        TOPICS.notificationsDeadLetter.encode({ delivery_id: d.id, service_id: d.service_id, kind: d.kind, payload: d.payload, attempts: d.attempts + 1, last_error: error, created_at: d.created_at.toISOString() }),
      ),
  });

  // New deliveries are written already claimed and sent at once (no claim round trip), in slices
  // the dispatcher has room for, so a lease is never spent waiting. Once written, the batch's
  // offsets may move on: a crash before the send leaves them to the schedule when the lease ends.
  const createAndSend = async (rows: NewDelivery[]): Promise<void> => {
    for (let start = 0; start < rows.length; start += env.NOTIFY_CONCURRENCY) {
      const slice = rows.slice(start, start + env.NOTIFY_CONCURRENCY);
      await dispatcher.reserve(slice.length);
      let fresh;
      try {
        fresh = await insertClaimedDeliveries(pool, slice, env.NOTIFY_LEASE_MS);
      } catch (error) {
        dispatcher.release(slice.length);
        throw error;
      }
      metrics.created.inc(fresh.length);
      dispatcher.sendClaimed(fresh, slice.length);
    }
  };

  // The tiles' attached services, kept in memory (targets.ts): the feed first, then the snapshot, so no
  // change committed in between passes unseen; the revision each tile change carries covers the rest.
  const targets = new NotificationTargets(
    (keys) => loadNotificationTargets(pool, keys),
    (reason) => metrics.targetReads.inc({ reason }),
  );
  const control = await runFanOutConsumer({
    kafka,
    logger,
    topic: env.TOPIC_CONTROL,
    groupPrefix: `${env.NOTIFICATION_GROUP_ID}-control`,
    decode: TOPICS.control.decode,
    handle: (change) => targets.catchUp(change.project_key, change.revision),
  });
  await Promise.race([control.whenReady(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  await targets.refreshAll('snapshot');
  const poll = setInterval(() => void targets.refreshAll('poll').catch((error: unknown) => logger.warn({ event: 'notification_targets_refresh_failed', err: error })), env.NOTIFICATION_TARGETS_POLL_MS);
  poll.unref();

  // Status transitions (not value-only changes) become one delivery per service the tile names.
  const transitions: RunningConsumer = await runBatchConsumer<TileChange>({
    kafka,
    logger,
    groupId: env.NOTIFICATION_GROUP_ID,
    topic: env.TOPIC_TILE_CHANGES,
    deadLetterTopic: env.TOPIC_NOTIFICATIONS_DLQ,
    deadLetterHeaders,
    producer,
    decode: TOPICS.tileChanges.decode,
    sessionTimeoutMs: env.NOTIFICATION_SESSION_TIMEOUT_MS,
    gatherMs: env.NOTIFICATION_GATHER_MS,
    // A span per batch (tracing on), the child of its first change's trace and linked to the others'.
    handle: async (messages) => {
      if (!tracing.enabled) return transitionsToDeliveries(messages);
      return traceBatch(tracing, 'notification transitions', messageTraceparents(messages), { 'messaging.destination.name': env.TOPIC_TILE_CHANGES }, () => transitionsToDeliveries(messages));
    },
  });
  async function transitionsToDeliveries(messages: ConsumedMessage<TileChange>[]): Promise<Outcome[]> {
    const transitions = messages.filter((m) => m.value.status !== m.value.previous_status);
    const found = await targets.targetsFor(transitions.map((m) => ({ projectKey: m.value.project_key, tileId: m.value.tile_id, revision: revisionOf(m.raw.headers?.[PROJECT_REVISION_HEADER]) })));
    const rows: NewDelivery[] = [];
    for (const { value: c } of transitions) {
      const target = found.get(c.tile_id);
      for (const serviceId of target?.serviceIds ?? []) {
        rows.push({
          id: `dlv_${c.position}_${serviceId}`,
          serviceId,
          accountId: target!.accountId,
          kind: 'transition',
          tileId: c.tile_id,
          eventId: c.event_id,
          position: c.position,
          payload: { tile_id: c.tile_id, tile_name: c.tile_name, project_key: c.project_key, status: c.status, previous_status: c.previous_status, value: c.value, event_id: c.event_id, changed_at: c.changed_at },
        });
      }
    }
    await createAndSend(rows);
    return messages.map(() => OK);
  }
  // Messages the API asked for (send_message, send): a delivery each, tried at once.
  const requests: RunningConsumer = await runBatchConsumer<NotificationRequest>({
    kafka,
    logger,
    groupId: `${env.NOTIFICATION_GROUP_ID}-requests`,
    topic: env.TOPIC_NOTIFICATION_REQUESTS,
    deadLetterTopic: env.TOPIC_NOTIFICATIONS_DLQ,
    deadLetterHeaders,
    producer,
    decode: TOPICS.notificationRequests.decode,
    sessionTimeoutMs: env.NOTIFICATION_SESSION_TIMEOUT_MS,
    handle: async (messages) => {
      const rows: NewDelivery[] = messages.map(({ value: r }) => ({ id: r.request_id, serviceId: r.service_id, accountId: r.account_id, kind: r.test ? 'test' : 'message', tileId: null, eventId: null, position: null, payload: { subject: r.subject, body: r.body } }));
      await createAndSend(rows);
      return messages.map(() => OK);
    },
  });
  dispatcher.start();

  const ops = env.NOTIFICATION_HTTP_PORT === 0 ? undefined : await startOpsServer({ port: env.NOTIFICATION_HTTP_PORT, host: env.NOTIFICATION_HTTP_HOST, registry: metrics.registry, readiness: () => ({ kafka_group: kafkaSignals.joined() }) });
  warnOutboundPolicy(env, logger);
  logger.info({ event: 'notification_started', group: env.NOTIFICATION_GROUP_ID, allow_loopback: env.NOTIFY_ALLOW_LOOPBACK, allow_private: env.NOTIFY_ALLOW_PRIVATE });

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
