import type { Kafka, KafkaMessage } from 'kafkajs';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { errorFields, isTransient, RETRY_MAX_BACKOFF_MS } from './transient.ts';
import { FetchPacer } from './consume/fetch-pacer.ts';
import type { ConsumedMessage, Decoder } from './consume/types.ts';
import { PartitionLocks } from './consume/partition-locks.ts';
import type { DeadLetter, DeadLetterTarget } from './consume/dead-letters.ts';
import { createBatchRunner, sleepWithHeartbeat, type Attempt } from './consume/runner.ts';
import { TurnGatherer } from './consume/turn-gatherer.ts';
import { prepared } from '@pulseboard/db';

import type { PartitionClaim, StateBatchResult } from './consume/postgres-offsets.ts';

export interface StateConsumerOptions<T> {
  kafka: Kafka;
  logger: Logger;
  pool: Pool;
  groupId: string;
  topic: string;
  /**
   * The service's offsets table (its own migration):
   * `(group_id text, topic text, partition int, next_offset bigint, epoch bigint, updated_at timestamptz,
   *   PRIMARY KEY (group_id, topic, partition))`.
   */
  offsetsTable: string;
  decode: Decoder<T>;
  /** Applies the messages inside the transaction `tx`, which also stores the offsets. Mutates no memory. */
  handle: (tx: PoolClient, messages: ConsumedMessage<T>[], claim: PartitionClaim) => Promise<StateBatchResult>;
  /**
   * Optional, for the shared transaction of a fetch (`combinePartitions`): the batches of several
   * partitions at once, so that their writes can share statements; one result per batch, in order.
   * Same contract as `handle`. Without it, `handle` is called once per partition in that transaction.
   */
  handleAll?: (tx: PoolClient, batches: { messages: ConsumedMessage<T>[]; claim: PartitionClaim }[]) => Promise<StateBatchResult[]>;
  /** Inside the claiming transaction: forget what memory held for the partition, load what it needs. */
  onClaim?: (tx: PoolClient, claim: PartitionClaim) => Promise<void>;
  /** The partition left this instance (rebalance, fencing, stop): drop its timers and memory. */
  onRelease?: (partition: number) => void;
  /** Told every message that is dropped without being applied (undecodable, or a drop outcome). */
  onDrop?: (message: { partition: number; offset: string; reason: string }) => void;
  /**
   * Where undecodable messages, `dead_letter` outcomes and messages the
   * handler fails on for good are parked, written before the transaction that
   * moves the offsets past them commits (at least once: a failed commit sends
   * them again). Without it they are dropped (logged, `onDrop`).
   */
  deadLetter?: DeadLetterTarget;
  /** Default: `isTransient` (retryable by property, or a connection-level failure of Postgres or the network). Anything else is dead-lettered or dropped. */
  isRetryable?: (error: unknown) => boolean;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  maxBytesPerPartition?: number;
  maxBackoffMs?: number;
  /** How often, at most, a partition's offset is also committed to Kafka (lag monitoring); default 1 s. */
  kafkaCommitIntervalMs?: number;
  /** Time-bounded batching: a fetch that brought messages is followed by the next no sooner than this after it began (see FetchPacer); 0: at once. */
  gatherMs?: number;
  /**
   * The batches of one fetch (one per partition) applied in one transaction (default true): each
   * partition's offsets row checked and moved, then the handler once per partition, one commit. At a
   * low rate a fetch holds about one message per partition, so this divides transactions (and their
   * commits, locks and round trips) by the partitions that had messages. A fetch whose batches are
   * not all plain (a partition to claim or rewind, an undecodable message, an outcome other than ok,
   * any error) is applied partition by partition instead, exactly as with this off.
   */
  combinePartitions?: boolean;
  /**
   * A fetch that brought this many messages or more is applied partition by partition, side by side
   * (`partitionsConsumedConcurrently`), not in one shared transaction: its batches are large enough
   * to carry a transaction each, and one connection would serialise what several apply at once
   * (with no threshold, webhook batches at saturation cost more CPU per event). Default 500.
   */
  combineBelowMessages?: number;
}

export interface RunningStateConsumer {
  /** Runs `work` in a transaction holding the partition's claim; false when this instance no longer owns it. */
  withClaim(partition: number, work: (tx: PoolClient, claim: PartitionClaim) => Promise<(() => void) | void>): Promise<boolean>;
  /** Partitions this instance holds a claim on now. */
  claimedPartitions(): number[];
  stop(): Promise<void>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * A consumer whose offsets live in Postgres, written in the same transaction
 * as the state the messages produce: a crash or a redelivery never applies a
 * message twice, and a rebalance never lets two instances write one
 * partition's state (epoch fencing). Kafka's own committed offset trails the
 * stored one and serves lag monitoring and a fast start; where it runs ahead
 * (the state lost its last commits), the partition is read again from the
 * stored offset.
 *
 * Error handling is the batch runner's (createBatchRunner): a retryable error
 * retries the batch with capped backoff until it succeeds or the partition is
 * lost; any other error is narrowed down to the message that causes it, which
 * is dead-lettered (or dropped, logged and counted, without a target) so that
 * one bad message cannot stall its partition forever.
 */
export async function runStateConsumer<T>(options: StateConsumerOptions<T>): Promise<RunningStateConsumer> {
  const { logger, pool, groupId, topic } = options;
  if (!IDENTIFIER.test(options.offsetsTable)) throw new Error(`offsets table name ${options.offsetsTable} is not a plain identifier`);
  const table = options.offsetsTable;
  const retryable = options.isRetryable ?? isTransient;
  const maxBackoffMs = options.maxBackoffMs ?? RETRY_MAX_BACKOFF_MS;
  const claims = new Map<number, PartitionClaim>();
  const kafkaCommitIntervalMs = options.kafkaCommitIntervalMs ?? 1000;
  const kafkaCommittedAt = new Map<number, number>();
  /** Stored offsets not yet committed to Kafka, per partition. */
  const uncommitted = new Map<number, string>();
  const locks = new PartitionLocks();
  /** The heartbeat of the batch each partition is working on: a retry's wait keeps the group membership (and the partition). */
  const heartbeats = new Map<number, () => Promise<void>>();
  /** Partitions sought back to their stored offset, and to which: a second seek to the same offset would loop. */
  const soughtBack = new Map<number, bigint>();
  let stopping = false;

  const consumer = options.kafka.consumer({
    groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: options.heartbeatIntervalMs ?? 3000,
    maxBytesPerPartition: options.maxBytesPerPartition ?? 4 * 1024 * 1024,
    allowAutoTopicCreation: false,
  });

  const pacer = new FetchPacer(consumer, options.gatherMs ?? 0);

  const release = (partition: number) => {
    uncommitted.delete(partition);
    if (!claims.delete(partition)) return;
    logger.info({ event: 'partition_released', topic, partition });
    options.onRelease?.(partition);
  };

  async function commitToKafka(partitions: number[]): Promise<void> {
    const offsets = partitions.flatMap((partition) => {
      const offset = uncommitted.get(partition);
      if (offset === undefined) return [];
      uncommitted.delete(partition);
      kafkaCommittedAt.set(partition, Date.now());
      return [{ topic, partition, offset }];
    });
    if (offsets.length === 0) return;
    await consumer
      .commitOffsets(offsets)
      .catch((error: unknown) => logger.warn({ event: 'kafka_commit_failed', topic, partitions: offsets.map((o) => o.partition), err: error }));
  }
  const commitTimer = setInterval(() => void commitToKafka([...uncommitted.keys()]), kafkaCommitIntervalMs);
  commitTimer.unref();

  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const assigned = new Set(payload.memberAssignment[topic] ?? []);
    for (const partition of [...claims.keys()]) if (!assigned.has(partition)) release(partition);
  });

  async function inTransaction<R>(work: (tx: PoolClient) => Promise<R>): Promise<R> {
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      return result;
    } catch (error) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      tx.release();
    }
  }

  /** Takes the partition over: a new epoch fences every earlier owner out. */
  async function claim(partition: number): Promise<PartitionClaim> {
    release(partition);
    const result = await inTransaction(async (tx) => {
      const { rows } = await tx.query<{ next_offset: string; epoch: string }>(
        `INSERT INTO ${table} AS o (group_id, topic, partition, next_offset, epoch, updated_at) VALUES ($1, $2, $3, -1, 1, now())
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET epoch = o.epoch + 1, updated_at = now()
         RETURNING next_offset::text, epoch::text`,
        [groupId, topic, partition],
      );
      const claimed: PartitionClaim = { topic, partition, epoch: Number(rows[0]!.epoch), nextOffset: BigInt(rows[0]!.next_offset) };
      await options.onClaim?.(tx, claimed);
      return claimed;
    });
    claims.set(partition, result);
    logger.info({ event: 'partition_claimed', topic, partition, epoch: result.epoch, next_offset: result.nextOffset.toString() });
    return result;
  }

  /** `claim`, retried with capped backoff while the failure is retryable (Postgres away); undefined once the batch is no longer live. */
  async function claimWhenPossible(partition: number, isLive: () => boolean): Promise<PartitionClaim | undefined> {
    for (let attempt = 1; ; attempt++) {
      if (!isLive()) return undefined;
      try {
        return await claim(partition);
      } catch (error) {
        if (!retryable(error)) throw error;
        const delay = Math.min(maxBackoffMs, 100 * 2 ** Math.min(attempt, 10));
        logger.warn({ event: 'partition_claim_retry', topic, partition, attempt, retry_in_ms: delay, ...errorFields(error) });
        await sleepWithHeartbeat(delay, isLive, heartbeats.get(partition));
      }
    }
  }

  /** Locks the offsets row; false when another instance claimed the partition since. */
  async function holdsClaim(tx: PoolClient, current: PartitionClaim): Promise<boolean> {
    const { rows } = await tx.query<{ epoch: string }>(
      prepared(`SELECT epoch::text FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = $3 FOR UPDATE`, [groupId, topic, current.partition]),
    );
    return rows[0] !== undefined && Number(rows[0].epoch) === current.epoch;
  }

  class Fenced extends Error {}

  const moveOffsetsText = `UPDATE ${table} AS o SET next_offset = m.next_offset, updated_at = now()
      FROM unnest($3::int[], $4::bigint[], $5::bigint[], $6::bigint[]) AS m(partition, next_offset, epoch, stored)
     WHERE o.group_id = $1 AND o.topic = $2 AND o.partition = m.partition AND o.epoch = m.epoch AND o.next_offset = m.stored`;
  /**
   * Each claim's offset moved to its `nextOffset`, only under its epoch and only from the offset it last
   * stored: one row per claim that holds (its row is then locked for the transaction), none for a claim
   * another instance took or whose earlier attempt's commit went through unseen.
   */
  const moveOffsets = (moves: { claim: PartitionClaim; nextOffset: bigint }[]) =>
    prepared(moveOffsetsText, [
      groupId,
      topic,
      moves.map((m) => m.claim.partition),
      moves.map((m) => m.nextOffset.toString()),
      moves.map((m) => m.claim.epoch),
      moves.map((m) => m.claim.nextOffset.toString()),
    ]);

  const runnerOptions = {
    logger,
    topic,
    groupId,
    ...(options.deadLetter === undefined ? {} : { deadLetter: options.deadLetter }),
    onDrop: (message: DeadLetter['message'], reason: string) => options.onDrop?.({ partition: message.partition, offset: message.offset, reason }),
    isRetryable: retryable,
    isFatal: (error: unknown) => error instanceof Fenced,
    maxBackoffMs,
  };

  /**
   * The commit strategy: the new offset, the handler's writes and (before the commit) the run's dead
   * letters in one transaction; memory learns the new state only after it committed.
   */
  function attemptOn(current: PartitionClaim): Attempt<T> {
    return async (messages, nextOffset, settle) => {
      const result = await inTransaction(async (tx) => {
        // The new offset first, and only under our epoch: one statement both checks the claim and locks
        // its row for the transaction (a claimer waits for our commit); a rollback undoes it with the rest.
        // And only from the offset we last stored: when the connection died during an earlier attempt's
        // COMMIT (Postgres stopped), that attempt may have committed; then this one must not apply the
        // batch again. It finds the row moved and is treated as fenced: the partition is claimed again
        // and its state reloaded from what did commit.
        const moved = await tx.query(moveOffsets([{ claim: current, nextOffset }]));
        if (moved.rowCount !== 1) throw new Fenced();
        const handled: StateBatchResult = messages.length === 0 ? { outcomes: [] } : await options.handle(tx, messages, current);
        await settle(handled.outcomes);
        return handled;
      });
      current.nextOffset = nextOffset;
      // A rebalance may have released the partition meanwhile: its memory is gone, nothing to publish to.
      if (claims.get(current.partition) === current) result.committed?.();
      return result.outcomes;
    };
  }

  /** The messages to apply, and the undecodable ones to park (or drop: the runner decides). */
  function decodeAll(partition: number, raws: KafkaMessage[]): { decoded: ConsumedMessage<T>[]; letters: DeadLetter[] } {
    const decoded: ConsumedMessage<T>[] = [];
    const letters: DeadLetter[] = [];
    for (const raw of raws) {
      const result = options.decode(raw.value, raw.headers);
      if (result.ok) decoded.push({ topic, partition, offset: raw.offset, key: raw.key, raw, value: result.value });
      else letters.push({ message: { topic, partition, offset: raw.offset, raw }, code: result.code, reason: result.message });
    }
    return { decoded, letters };
  }

  /** One partition's batch of a fetch, offered to the fetch's shared transaction. */
  interface Offered {
    partition: number;
    messages: KafkaMessage[];
    nextOffset: bigint;
    isLive: () => boolean;
  }
  /** Why a shared transaction was given up: every batch of the fetch is then applied on its own. */
  class NotPlain extends Error {}

  /**
   * Applies a fetch's plain batches in one transaction; answers per batch whether it was applied
   * (true) or is left to the partition-by-partition path (false). Memory learns the new states only
   * after the commit, as with one transaction per partition.
   */
  const combineBelow = options.combineBelowMessages ?? 500;
  async function applyTogether(offered: Offered[]): Promise<boolean[]> {
    if (offered.length < 2 || offered.reduce((n, o) => n + o.messages.length, 0) >= combineBelow) return offered.map(() => false);
    const answers = offered.map(() => false);
    await locks.runAll(
      offered.map((o) => o.partition),
      async () => {
        const plain: { index: number; claim: PartitionClaim; decoded: ConsumedMessage<T>[]; nextOffset: bigint }[] = [];
        offered.forEach((o, index) => {
          const claim = claims.get(o.partition);
          if (claim === undefined || !o.isLive() || stopping) return;
          const first = BigInt(o.messages[0]!.offset);
          if (claim.nextOffset >= 0n && first > claim.nextOffset) return;
          const { decoded, letters } = decodeAll(
            o.partition,
            o.messages.filter((m) => BigInt(m.offset) >= claim.nextOffset),
          );
          if (decoded.length === 0 || letters.length > 0) return;
          plain.push({ index, claim, decoded, nextOffset: o.nextOffset });
        });
        if (plain.length < 2) return;
        let results: StateBatchResult[];
        try {
          results = await inTransaction(async (tx) => {
            // Every claim checked and its offset moved in one statement: a row for each, or none of it.
            const moved = await tx.query(moveOffsets(plain.map((p) => ({ claim: p.claim, nextOffset: p.nextOffset }))));
            if (moved.rowCount !== plain.length) throw new NotPlain('fenced or moved');
            const handled =
              options.handleAll !== undefined
                ? await options.handleAll(
                    tx,
                    plain.map((p) => ({ messages: p.decoded, claim: p.claim })),
                  )
                : await (async () => {
                    const each: StateBatchResult[] = [];
                    for (const p of plain) each.push(await options.handle(tx, p.decoded, p.claim));
                    return each;
                  })();
            plain.forEach((p, i) => {
              const outcomes = handled[i]?.outcomes;
              if (outcomes?.length !== p.decoded.length || outcomes.some((o) => o.kind !== 'ok')) throw new NotPlain('an outcome other than ok');
            });
            return handled;
          });
        } catch (error) {
          // Nothing of it committed: each batch goes the partition-by-partition way, which retries,
          // fences, narrows to a bad message and dead-letters as it always did.
          logger.debug({ event: 'shared_transaction_given_up', topic, partitions: plain.map((p) => p.claim.partition), ...errorFields(error) });
          return;
        }
        plain.forEach((p, i) => {
          p.claim.nextOffset = p.nextOffset;
          // A rebalance may have released the partition meanwhile: its memory is gone, nothing to publish to.
          if (claims.get(p.claim.partition) === p.claim) results[i]!.committed?.();
          answers[p.index] = true;
        });
      },
    );
    return answers;
  }
  const fetchTransaction = options.combinePartitions === false ? undefined : new TurnGatherer<Offered, boolean>(applyTogether);
  const concurrency = options.partitionsConsumedConcurrently ?? 1;
  const oneByOne = limiter(concurrency);

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    // Shared transactions: every batch of a fetch in hand at once, or they would meet in turns of
    // `partitionsConsumedConcurrently`. The partition-by-partition path runs under that bound still.
    partitionsConsumedConcurrently: fetchTransaction === undefined ? concurrency : Math.max(concurrency, 64),
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (batch.messages.length === 0) return;
      const isLive = () => isRunning() && !isStale() && !stopping;
      const partition = batch.partition;
      logger.debug({ event: 'batch_received', topic, partition, first: batch.firstOffset(), last: batch.lastOffset(), claimed: claims.get(partition)?.epoch });
      const last = batch.messages[batch.messages.length - 1]!;
      const nextOffset = BigInt(last.offset) + 1n;
      heartbeats.set(partition, heartbeat);
      const applied = fetchTransaction !== undefined && (await fetchTransaction.join({ partition, messages: batch.messages, nextOffset, isLive }));
      if (!applied)
        await oneByOne(() =>
          locks.run(partition, async () => {
            for (let fencedTries = 0; fencedTries < 3 && isLive(); fencedTries++) {
              const current = claims.get(partition) ?? (await claimWhenPossible(partition, isLive));
              if (current === undefined) return;
              const first = BigInt(batch.messages[0]!.offset);
              if (current.nextOffset >= 0n && first > current.nextOffset && soughtBack.get(partition) !== current.nextOffset) {
                // Kafka's offset is ahead of the stored one: the state lost its last
                // commits (a commit not yet flushed when the database crashed, a
                // restore). The stored offset is the truth: read the gap again.
                logger.warn({
                  event: 'consumer_rewound_to_stored_offset',
                  topic,
                  partition,
                  kafka_offset: first.toString(),
                  stored_offset: current.nextOffset.toString(),
                });
                soughtBack.set(partition, current.nextOffset);
                consumer.seek({ topic, partition, offset: current.nextOffset.toString() });
                return;
              }
              if (first > current.nextOffset && current.nextOffset >= 0n) {
                // Sought back already and Kafka still starts later: the log no longer holds the gap (retention).
                logger.error({ event: 'consumer_offset_gap', topic, partition, from: current.nextOffset.toString(), to: first.toString() });
              }
              soughtBack.delete(partition);
              const fresh = batch.messages.filter((m) => BigInt(m.offset) >= current.nextOffset);
              if (fresh.length === 0) {
                if (current.nextOffset > nextOffset) {
                  // Kafka's offset trails the stored one (a crash between the two commits): jump ahead.
                  consumer.seek({ topic, partition, offset: current.nextOffset.toString() });
                  return;
                }
                break;
              }
              try {
                const { decoded, letters } = decodeAll(partition, fresh);
                const runBatch = createBatchRunner<T>({ ...runnerOptions, attempt: attemptOn(current) });
                if (!(await runBatch({ partition, messages: decoded, letters, nextOffset, live: isLive, heartbeat }))) return;
                break;
              } catch (error) {
                if (!(error instanceof Fenced)) throw error;
                // Another instance claimed it since; Kafka still hands it to us, so it is ours again.
                logger.warn({ event: 'partition_fenced', topic, partition, epoch: current.epoch });
                release(partition);
              }
            }
          }),
        );
      if (!isLive()) return;
      resolveOffset(last.offset);
      // Only for lag monitoring and a fast start (the stored offset is the truth), so at most once
      // per interval and partition: a commit round trip per batch would lengthen every fetch cycle.
      // What is not committed here the timer commits (an idle partition shows no stale lag).
      uncommitted.set(partition, nextOffset.toString());
      if (Date.now() - (kafkaCommittedAt.get(partition) ?? 0) >= kafkaCommitIntervalMs) await commitToKafka([partition]);
      await heartbeat().catch(() => undefined);
      await pacer.pace(isLive);
    },
  });

  let stopped: Promise<void> | undefined;
  return {
    async withClaim(partition, work) {
      return locks.run(partition, async () => {
        const current = claims.get(partition);
        if (current === undefined || stopping) return false;
        try {
          const after = await inTransaction(async (tx) => {
            if (!(await holdsClaim(tx, current))) throw new Fenced();
            return work(tx, current);
          });
          after?.();
          return true;
        } catch (error) {
          if (!(error instanceof Fenced)) throw error;
          logger.warn({ event: 'partition_fenced', topic, partition, epoch: current.epoch });
          release(partition);
          return false;
        }
      });
    },
    claimedPartitions: () => [...claims.keys()],
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearInterval(commitTimer);
        // While still in the group: Kafka's offsets as current as they can be for the next start.
        await commitToKafka([...uncommitted.keys()]);
        await consumer.stop();
        await consumer.disconnect();
        await locks.idle();
        for (const partition of [...claims.keys()]) release(partition);
      })();
      return stopped;
    },
  };
}

/** Runs at most `n` pieces of work at once, the others in the order they asked. */
function limiter(n: number): <R>(work: () => Promise<R>) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    while (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
