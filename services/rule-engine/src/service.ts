import { fileURLToPath } from 'node:url';
import {
  batchSpan,
  createLogger,
  drainWithin,
  instrumentPool,
  kafkaBrokers,
  kafkaSecurity,
  revisionCacheMetrics,
  startOpsServer,
  startTracing,
  type Logger,
} from '@pulseboard/config';
import { TOPICS, createAjv, tileRuleValidator, type IngestedEvent } from '@pulseboard/contracts';
import {
  BatchingProducer,
  OutboxRelay,
  createKafka,
  endOffsetsReader,
  ensureTopics,
  instrumentKafka,
  partitionCount,
  partitionForKey,
  consume,
  eachMessage,
  type Consuming,
} from '@pulseboard/kafka-kit';
import { createPool, outboxSource, runMigrations } from '@pulseboard/db';
import type { RuleEngineEnv } from './env.ts';
import { RuleEngine } from './engine.ts';
import { createEngineMetrics } from './metrics.ts';
import { RulesCache } from './rules-cache.ts';
import { FreshnessReporter } from './freshness.ts';
import { committedEntries, historySource } from './repository.ts';
import { readRelayBacklog } from './relay-backlog.ts';
import { pendingReplays, pruneReplays, REPLAY_PRUNE_INTERVAL_MS } from './replay.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));
const OFFSETS_TABLE = 'rule_engine_offsets';
const OUTBOX_TABLE = 'rule_engine_outbox';

export interface RuleEngineService {
  /** Applies the time-driven changes due by the clock's now; tests with an injected clock call it. */
  tick(): Promise<number>;
  /** Compares the cached rules' revisions with Postgres now, instead of at the next safety-net poll. */
  refreshRules(): Promise<void>;
  httpAddress: string | undefined;
  stop(): Promise<void>;
}

export interface RuleEngineOptions {
  logger?: Logger;
  /** Engine time in epoch ms; the wall clock unless a test injects one. */
  clock?: () => number;
}

/** Composition root: builds every dependency once and passes it down. */
export async function startRuleEngine(env: RuleEngineEnv, options: RuleEngineOptions = {}): Promise<RuleEngineService> {
  const logger = options.logger ?? createLogger('rule-engine', env.LOG_LEVEL);
  if (env.MIGRATE_ON_START) await runMigrations({ databaseUrl: env.DATABASE_URL, dir: MIGRATIONS_DIR, service: 'rule-engine', logger });
  const tracing = await startTracing('rule-engine', env);
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-rule-engine' });
  const metrics = createEngineMetrics();
  instrumentPool(metrics.registry, pool);
  metrics.watchRelayBacklog(() => readRelayBacklog(pool, { groupId: env.RULE_ENGINE_GROUP_ID, eventsTopic: env.TOPIC_EVENTS }));
  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-rule-engine`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger, security: kafkaSecurity(env) });
  const kafkaSignals = instrumentKafka(kafka, metrics.registry, { lagging: [{ groupId: env.RULE_ENGINE_GROUP_ID, topic: env.TOPIC_EVENTS }] });
  await ensureTopics(kafka, [
    TOPICS.events.spec(env.TOPIC_EVENTS, env),
    TOPICS.tileChanges.spec(env.TOPIC_TILE_CHANGES),
    TOPICS.tileReplacements.spec(env.TOPIC_TILE_REPLACEMENTS),
    TOPICS.ruleOutcomes.spec(env.TOPIC_RULE_OUTCOMES),
    TOPICS.control.spec(env.TOPIC_CONTROL),
  ]);
  const partitions = await partitionCount(kafka, env.TOPIC_EVENTS);
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  const freshness = new FreshnessReporter({
    pool,
    topic: env.TOPIC_EVENTS,
    ends: endOffsetsReader(kafka, env.TOPIC_EVENTS),
    logger,
    registry: metrics.registry,
  });
  producer.start();

  const ajv = createAjv();
  const rules = new RulesCache(pool, tileRuleValidator(ajv), logger, revisionCacheMetrics(metrics.registry, 'rules'));
  let claimed: () => number[] = () => [];
  const outbox = outboxSource(pool, OUTBOX_TABLE);
  const history = historySource(pool, {
    groupId: env.RULE_ENGINE_GROUP_ID,
    eventsTopic: env.TOPIC_EVENTS,
    tileChangesTopic: env.TOPIC_TILE_CHANGES,
    markIntervalMs: env.RULE_ENGINE_RELAY_MARK_MS,
    logger,
  });
  const relay = new OutboxRelay({
    producer,
    logger,
    sources: [outbox, history],
    partitions: () => claimed(),
    sweepIntervalMs: env.RULE_ENGINE_RELAY_SWEEP_MS,
    onRelayed: (n, seconds) => metrics.relayed(n, seconds),
  });
  const engine = new RuleEngine({
    logger,
    metrics,
    rules,
    topics: { ruleOutcomes: env.TOPIC_RULE_OUTCOMES, tileReplacements: env.TOPIC_TILE_REPLACEMENTS, outboxTable: OUTBOX_TABLE },
    clock: options.clock ?? Date.now,
    groupId: env.RULE_ENGINE_GROUP_ID,
    eventsTopic: env.TOPIC_EVENTS,
    storeGroupId: env.STORE_GROUP_ID,
    partitionOf: (projectKey) => partitionForKey(projectKey, partitions),
    onCommitted: (wrote) => {
      // A claimed partition's stream is read from its cursor (a former owner may have left rows); after a
      // commit, the relay takes what it wrote from memory instead of reading it back.
      if (wrote.claimed) history.forget();
      else history.offer(committedEntries(wrote.history, env.TOPIC_TILE_CHANGES));
      relay.notify([...(wrote.outbox ? [outbox] : []), ...(wrote.history.length > 0 || wrote.claimed ? [history] : [])]);
    },
    followRevisions: env.RULE_ENGINE_FOLLOW_REVISIONS,
    timeGatherMs: env.RULE_ENGINE_TIME_GATHER_MS,
    progress: freshness,
  });
  // Control-plane writes, as they happen: a cached project older than the message is read again and
  // its loaded states move to the new rules (a tile nobody sends events to changes too). Before the
  // events consumer starts, so no change committed after the first evaluation passes unseen.
  let control: Consuming | undefined;
  if (env.RULE_ENGINE_FOLLOW_REVISIONS) {
    control = await consume({
      kafka,
      logger,
      topic: env.TOPIC_CONTROL,
      group: { fanOut: `${env.RULE_ENGINE_GROUP_ID}-control` },
      offsets: 'none',
      decode: TOPICS.control.decode,
      handler: eachMessage(async (change) => {
        const moved = await rules.catchUp(change.project_key, change.revision);
        if (moved === undefined) return;
        metrics.rulesReloaded('feed');
        await engine.applyRuleChanges([moved]);
      }),
    });
    await Promise.race([control.whenReady(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  }
  const consumer = await consume<IngestedEvent>({
    kafka,
    logger,
    group: env.RULE_ENGINE_GROUP_ID,
    topic: env.TOPIC_EVENTS,
    offsets: 'postgres',
    postgres: { pool, table: OFFSETS_TABLE, handleAll: engine.handleAll, onClaim: engine.onClaim, onRelease: engine.onRelease },
    decode: TOPICS.events.decode,
    // A span per partition's batch (tracing on), the child of its first event's trace and linked to the others'.
    trace: batchSpan(tracing, 'rule-engine evaluate'),
    handler: engine.handle,
    onDrop: () => metrics.dropped(),
    partitionsConsumedConcurrently: env.RULE_ENGINE_PARTITIONS_CONCURRENTLY,
    gatherMs: env.RULE_ENGINE_GATHER_MS,
    sessionTimeoutMs: env.RULE_ENGINE_SESSION_TIMEOUT_MS,
  });
  claimed = () => consumer.claimedPartitions();
  engine.attach(consumer);
  relay.start();
  freshness.start();

  let polling: Promise<void> | undefined;
  const refreshRules = () => {
    polling ??= rules
      .refresh()
      .then((changes) => {
        if (changes.length > 0) metrics.rulesReloaded('poll', changes.length);
        return engine.applyRuleChanges(changes);
      })
      .catch((error: unknown) => logger.warn({ event: 'rules_refresh_failed', err: error }))
      .finally(() => (polling = undefined));
    return polling;
  };
  const poller = setInterval(() => void refreshRules(), env.RULE_ENGINE_RULES_POLL_MS);

  // Replays to apply (tile_replays): each taken by the instance that holds its project's partition.
  let replaying: Promise<void> | undefined;
  const runReplays = () => {
    replaying ??= (async () => {
      for (const request of await pendingReplays(pool)) await engine.applyReplay(request);
    })()
      .catch((error: unknown) => logger.warn({ event: 'tile_replay_failed', err: error }))
      .finally(() => (replaying = undefined));
    return replaying;
  };
  const replayPoller = setInterval(() => void runReplays(), env.RULE_ENGINE_REPLAY_POLL_MS);
  // Finished and abandoned requests leave tile_replays (replay.ts, REPLAY_RETENTION).
  const replayPruner = setInterval(
    () => void pruneReplays(pool).catch((error: unknown) => logger.warn({ event: 'tile_replays_prune_failed', err: error })),
    REPLAY_PRUNE_INTERVAL_MS,
  );

  const ops =
    env.RULE_ENGINE_HTTP_PORT === 0
      ? undefined
      : await startOpsServer({
          port: env.RULE_ENGINE_HTTP_PORT,
          host: env.RULE_ENGINE_HTTP_HOST,
          registry: metrics.registry,
          readiness: () => ({ kafka_group: kafkaSignals.joined() }),
        });
  logger.info({ event: 'rule_engine_started', topic: env.TOPIC_EVENTS, group: env.RULE_ENGINE_GROUP_ID, partitions });

  let stopping: Promise<void> | undefined;
  return {
    tick: () => engine.tick(),
    refreshRules: () => refreshRules(),
    httpAddress: ops?.address,
    stop() {
      // Order: no new work (rules, timers, batches), send what committed work left in the outbox, then close.
      clearInterval(poller);
      clearInterval(replayPoller);
      clearInterval(replayPruner);
      let owned: number[] = [];
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'rule-engine', [
        ['control_feed', () => control?.stop()],
        ['rules_poll', () => polling],
        ['replays', () => replaying],
        ['engine', () => ((owned = consumer.claimedPartitions()), engine.stop())],
        ['consumer', () => consumer.stop()],
        // The last batches' messages leave now rather than at the next owner's claim.
        ['relay_flush', () => ((claimed = () => owned), relay.flush().catch((error: unknown) => logger.warn({ event: 'outbox_flush_failed', err: error })))],
        ['relay', () => relay.stop()],
        ['producer', () => producer.stop()],
        ['kafka_signals', () => kafkaSignals.stop()],
        ['freshness', () => freshness.stop()],
        ['postgres', () => pool.end()],
        ['ops_http', () => ops?.close()],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
