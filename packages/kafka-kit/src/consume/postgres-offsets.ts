import type { Consumer, KafkaMessage } from 'kafkajs';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { consumerOffsets, inTransaction, type StoredClaim } from '@pulseboard/db';
import { errorFields, isTransient, RETRY_MAX_BACKOFF_MS } from '../transient.ts';
import { createBatchRunner, sleepWithHeartbeat, type Attempt, type BatchRunnerOptions } from './runner.ts';
import { decodeBatch } from './decode.ts';
import { PartitionLocks } from './partition-locks.ts';
import { TurnGatherer } from './turn-gatherer.ts';
import type { FetchedBatch, OffsetsStrategy } from './strategy.ts';
import { resultOf, type BatchContext, type ConsumedMessage, type Decoder, type Handler, type HandlerResult } from './types.ts';

/**
 * A partition this instance owns, proven by `epoch`: every transaction that writes the partition's
 * state first locks its offsets row and checks the epoch, so a former owner that has not yet noticed
 * the rebalance (a zombie) can never write after the new owner took over.
 */
export interface PartitionClaim extends StoredClaim {
  topic: string;
}

/** What a state handler is told: the transaction that also moves the offsets, and the claim it runs under. */
export interface StateContext extends BatchContext {
  tx: PoolClient;
  claim: PartitionClaim;
}

export type StateBatchResult = HandlerResult;

/** One partition's batch in a fetch's shared transaction. */
export interface SharedBatch<T> {
  messages: ConsumedMessage<T>[];
  claim: PartitionClaim;
  traceparent?: string | undefined;
}

export interface PostgresOffsetsOptions<T> {
  pool: Pool;
  /** The service's offsets table (its own migration; the SQL is packages/db's consumer-offsets). */
  table: string;
  /**
   * Optional, for the shared transaction of a fetch (`combinePartitions`): the batches of several
   * partitions at once, so their writes can share statements; one result per batch, in order, each
   * batch with its span's `traceparent` (tracing middleware). Without it, the handler is called once
   * per partition in that transaction.
   */
  handleAll?: (tx: PoolClient, batches: SharedBatch<T>[]) => Promise<HandlerResult[]>;
  /** Inside the claiming transaction: forget what memory held for the partition, load what it needs. */
  onClaim?: (tx: PoolClient, claim: PartitionClaim) => Promise<void>;
  /** The partition left this instance (rebalance, fencing, stop): drop its timers and memory. */
  onRelease?: (partition: number) => void;
  /**
   * The batches of one fetch applied in one transaction (default true): at a low rate a fetch holds
   * about one message per partition, so this divides transactions by the partitions that had
   * messages. A fetch whose batches are not all plain (a partition to claim or rewind, an
   * undecodable message, an outcome other than ok, any error) is applied partition by partition.
   */
  combinePartitions?: boolean;
  /** A fetch of this many messages or more is applied partition by partition, side by side (default 500). */
  combineBelowMessages?: number;
}

/** What the state strategy offers besides consuming. */
export interface ClaimedPartitions {
  /** Runs `work` in a transaction holding the partition's claim; false when this instance no longer owns it. */
  withClaim(partition: number, work: (tx: PoolClient, claim: PartitionClaim) => Promise<(() => void) | void>): Promise<boolean>;
  /** Partitions this instance holds a claim on now. */
  claimedPartitions(): number[];
}

interface StrategyDeps<T> {
  consumer: Consumer;
  logger: Logger;
  groupId: string;
  topic: string;
  decode: Decoder<T>;
  handler: Handler<T, StateContext>;
  runner: Omit<BatchRunnerOptions<T>, 'attempt'>;
  concurrency: number;
  /** Told when a partition is released: its offset pending for Kafka is dropped. */
  forget: (partition: number) => void;
  stopping: () => boolean;
}

class Fenced extends Error {}
/** Why a shared transaction was given up: every batch of the fetch is then applied on its own. */
class NotPlain extends Error {}

/** One partition's batch of a fetch, offered to the fetch's shared transaction. */
interface Offered {
  partition: number;
  messages: KafkaMessage[];
  nextOffset: bigint;
  isLive: () => boolean;
}

/**
 * Offsets in Postgres, written in the same transaction as the state the messages produce: a crash or
 * a redelivery never applies a message twice, and a rebalance never lets two instances write one
 * partition's state (epoch fencing). Kafka's own committed offset trails the stored one and serves
 * lag monitoring and a fast start; where it runs ahead (the state lost its last commits), the
 * partition is read again from the stored offset.
 */
export function postgresOffsets<T>(options: PostgresOffsetsOptions<T>, deps: StrategyDeps<T>): OffsetsStrategy & ClaimedPartitions {
  const { pool } = options;
  const { consumer, logger, groupId, topic, decode, handler } = deps;
  const sql = consumerOffsets({ table: options.table, groupId, topic });
  const retryable = deps.runner.isRetryable ?? isTransient;
  const maxBackoffMs = deps.runner.maxBackoffMs ?? RETRY_MAX_BACKOFF_MS;
  const claims = new Map<number, PartitionClaim>();
  const locks = new PartitionLocks();
  /** The heartbeat of the batch each partition is working on: a claim's retry keeps the group membership. */
  const heartbeats = new Map<number, () => Promise<void>>();
  /** Partitions sought back to their stored offset, and to which: a second seek to the same offset would loop. */
  const soughtBack = new Map<number, bigint>();
  const runnerOptions = { ...deps.runner, isRetryable: retryable, isFatal: (error: unknown) => error instanceof Fenced, maxBackoffMs };

  const release = (partition: number) => {
    deps.forget(partition);
    if (!claims.delete(partition)) return;
    logger.info({ event: 'partition_released', topic, partition });
    options.onRelease?.(partition);
  };

  /** Takes the partition over: a new epoch fences every earlier owner out. */
  async function claim(partition: number): Promise<PartitionClaim> {
    release(partition);
    const result = await inTransaction(pool, async (tx) => {
      const claimed: PartitionClaim = { topic, ...(await sql.claim(tx, partition)) };
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

  /** Memory learns the new state only after the commit, and only while the claim it was made under is still ours. */
  const publish = (current: PartitionClaim, result: HandlerResult, nextOffset: bigint) => {
    current.nextOffset = nextOffset;
    if (claims.get(current.partition) === current) result.committed?.();
  };

  /**
   * The new offset, the handler's writes and (before the commit) the run's dead letters in one
   * transaction. The offset moves first, only under our epoch and only from the offset we last
   * stored: when the connection died during an earlier attempt's COMMIT, that attempt may have
   * committed; this one then finds the row moved and is treated as fenced (claimed again, state
   * reloaded from what did commit).
   */
  function attemptOn(current: PartitionClaim): Attempt<T> {
    return async (messages, nextOffset, settle) => {
      const result = await inTransaction(pool, async (tx) => {
        if ((await sql.move(tx, [{ claim: current, nextOffset }])) !== 1) throw new Fenced();
        const handled = messages.length === 0 ? { outcomes: [] } : resultOf(await handler(messages, { partition: current.partition, tx, claim: current }));
        await settle(handled.outcomes);
        return handled;
      });
      publish(current, result, nextOffset);
      return result.outcomes;
    };
  }

  /** Every claim's offset moved in one statement, then the handler for each batch: all ok, or none of it. */
  async function handleTogether(
    tx: PoolClient,
    plain: { claim: PartitionClaim; decoded: ConsumedMessage<T>[]; nextOffset: bigint }[],
  ): Promise<HandlerResult[]> {
    if ((await sql.move(tx, plain)) !== plain.length) throw new NotPlain('fenced or moved');
    const handled =
      options.handleAll !== undefined
        ? await options.handleAll(
            tx,
            plain.map((p) => ({ messages: p.decoded, claim: p.claim })),
          )
        : await (async () => {
            const each: HandlerResult[] = [];
            for (const p of plain) each.push(resultOf(await handler(p.decoded, { partition: p.claim.partition, tx, claim: p.claim })));
            return each;
          })();
    plain.forEach((p, i) => {
      const outcomes = handled[i]?.outcomes;
      if (outcomes?.length !== p.decoded.length || outcomes.some((o) => o.kind !== 'ok')) throw new NotPlain('an outcome other than ok');
    });
    return handled;
  }

  /** Applies a fetch's plain batches in one transaction; answers per batch whether it was applied or is left to the partition-by-partition path. */
  const combineBelow = options.combineBelowMessages ?? 500;
  async function applyTogether(offered: Offered[]): Promise<boolean[]> {
    const answers = offered.map(() => false);
    if (offered.length < 2 || offered.reduce((n, o) => n + o.messages.length, 0) >= combineBelow) return answers;
    await locks.runAll(
      offered.map((o) => o.partition),
      async () => {
        const plain: { index: number; claim: PartitionClaim; decoded: ConsumedMessage<T>[]; nextOffset: bigint }[] = [];
        offered.forEach((o, index) => {
          const current = claims.get(o.partition);
          if (current === undefined || !o.isLive() || deps.stopping()) return;
          if (current.nextOffset >= 0n && BigInt(o.messages[0]!.offset) > current.nextOffset) return;
          const fresh = o.messages.filter((m) => BigInt(m.offset) >= current.nextOffset);
          const { decoded, letters } = decodeBatch(decode, topic, o.partition, fresh);
          if (decoded.length === 0 || letters.length > 0) return;
          plain.push({ index, claim: current, decoded, nextOffset: o.nextOffset });
        });
        if (plain.length < 2) return;
        let results: HandlerResult[];
        try {
          results = await inTransaction(pool, (tx) => handleTogether(tx, plain));
        } catch (error) {
          // Nothing of it committed: each batch goes the partition-by-partition way, which retries,
          // fences, narrows to a bad message and dead-letters.
          logger.debug({ event: 'shared_transaction_given_up', topic, partitions: plain.map((p) => p.claim.partition), ...errorFields(error) });
          return;
        }
        plain.forEach((p, i) => {
          publish(p.claim, results[i]!, p.nextOffset);
          answers[p.index] = true;
        });
      },
    );
    return answers;
  }
  const fetchTransaction = options.combinePartitions === false ? undefined : new TurnGatherer<Offered, boolean>(applyTogether);
  const oneByOne = limiter(deps.concurrency);

  /** The partition's batch on its own: claimed if need be, sought back or ahead to the stored offset, applied from there. */
  async function applyAlone({ partition, messages, nextOffset, live, heartbeat }: FetchedBatch): Promise<void> {
    for (let fencedTries = 0; fencedTries < 3 && live(); fencedTries++) {
      const current = claims.get(partition) ?? (await claimWhenPossible(partition, live));
      if (current === undefined) return;
      const first = BigInt(messages[0]!.offset);
      if (current.nextOffset >= 0n && first > current.nextOffset) {
        if (soughtBack.get(partition) !== current.nextOffset) {
          // Kafka's offset is ahead of the stored one: the state lost its last commits (a commit not yet
          // flushed when the database crashed, a restore). The stored offset is the truth: read the gap again.
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
        // Sought back already and Kafka still starts later: the log no longer holds the gap (retention).
        logger.error({ event: 'consumer_offset_gap', topic, partition, from: current.nextOffset.toString(), to: first.toString() });
      }
      soughtBack.delete(partition);
      const fresh = messages.filter((m) => BigInt(m.offset) >= current.nextOffset);
      if (fresh.length === 0) {
        // Kafka's offset trails the stored one (a crash between the two commits): jump ahead.
        if (current.nextOffset > nextOffset) consumer.seek({ topic, partition, offset: current.nextOffset.toString() });
        return;
      }
      try {
        const { decoded, letters } = decodeBatch(decode, topic, partition, fresh);
        const run = createBatchRunner<T>({ ...runnerOptions, attempt: attemptOn(current) });
        await run({ partition, messages: decoded, letters, nextOffset, live, heartbeat });
        return;
      } catch (error) {
        if (!(error instanceof Fenced)) throw error;
        // Another instance claimed it since; Kafka still hands it to us, so it is ours again.
        logger.warn({ event: 'partition_fenced', topic, partition, epoch: current.epoch });
        release(partition);
      }
    }
  }

  return {
    // Shared transactions: every batch of a fetch in hand at once, or they would meet in turns of
    // `partitionsConsumedConcurrently`. The partition-by-partition path runs under that bound still.
    concurrency: fetchTransaction === undefined ? deps.concurrency : Math.max(deps.concurrency, 64),
    onAssigned(assigned) {
      const kept = new Set(assigned);
      for (const partition of [...claims.keys()]) if (!kept.has(partition)) release(partition);
    },
    async apply(batch) {
      logger.debug({ event: 'batch_received', topic, partition: batch.partition, claimed: claims.get(batch.partition)?.epoch });
      heartbeats.set(batch.partition, batch.heartbeat);
      const { partition, messages, nextOffset, live } = batch;
      const applied = fetchTransaction !== undefined && (await fetchTransaction.join({ partition, messages, nextOffset, isLive: live }));
      if (!applied) await oneByOne(() => locks.run(partition, () => applyAlone(batch)));
      return live();
    },
    async stopped() {
      await locks.idle();
      for (const partition of [...claims.keys()]) release(partition);
    },
    async withClaim(partition, work) {
      return locks.run(partition, async () => {
        const current = claims.get(partition);
        if (current === undefined || deps.stopping()) return false;
        try {
          const after = await inTransaction(pool, async (tx) => {
            if (!(await sql.holds(tx, current))) throw new Fenced();
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
