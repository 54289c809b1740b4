import type { Consumer, Kafka, IHeaders } from 'kafkajs';
import type { Logger } from 'pino';
import type { Outcome } from './outcome.ts';
import type { ConsumedMessage, Decoder } from './consume/types.ts';
import type { BatchingProducer } from './batching-producer.ts';
import { FetchPacer } from './consume/fetch-pacer.ts';
import type { DeadLetter, DeadLetterDescription } from './consume/dead-letters.ts';
import { createBatchRunner } from './consume/runner.ts';

export interface BatchConsumerOptions<T> {
  kafka: Kafka;
  logger: Logger;
  groupId: string;
  topic: string;
  deadLetterTopic: string;
  /** Headers a dead letter carries besides the original's: why, where from, when (the service's names). */
  deadLetterHeaders: (info: DeadLetterDescription) => IHeaders;
  /** Used to write dead letters (acks=all) before offsets move past them. */
  producer: BatchingProducer;
  decode: Decoder<T>;
  /**
   * Returns one outcome per message, in order. A thrown error that is
   * retryable (by property: `isTransient`) retries the batch with capped
   * backoff; any other is narrowed to the message that causes it, which is
   * dead-lettered, so one bug cannot stall a partition.
   */
  handle: (messages: ConsumedMessage<T>[]) => Promise<Outcome[]>;
  /** Told each `drop` outcome (also logged). */
  onDrop?: (message: ConsumedMessage<T>, reason: string) => void;
  isRetryable?: (error: unknown) => boolean;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  maxBackoffMs?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  maxBytesPerPartition?: number;
  /**
   * Offsets are committed by time, at most this often (only offsets of batches whose effects are
   * durable; also when the consumer stops), one OffsetCommit for all partitions; 0: after every
   * batch. A crash repeats at most this long's batches, as at least once allows.
   */
  commitIntervalMs?: number;
  /** Time-bounded batching: a fetch that brought messages is followed by the next no sooner than this after it began (see FetchPacer); 0: at once. */
  gatherMs?: number;
}

export interface RunningConsumer {
  /** Stops fetching, lets the batch in hand finish, commits, leaves the group. Safe to call twice. */
  stop(): Promise<void>;
  consumer: Consumer;
}

/**
 * Consumes a topic in batches. Offsets are committed only after the batch's
 * effects are durable: the handler's writes and any dead letters it produced.
 */
export async function runBatchConsumer<T>(options: BatchConsumerOptions<T>): Promise<RunningConsumer> {
  const { logger, groupId, topic } = options;
  const consumer = options.kafka.consumer({
    groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 30000,
    heartbeatInterval: options.heartbeatIntervalMs ?? 3000,
    maxBytesPerPartition: options.maxBytesPerPartition ?? 4 * 1024 * 1024,
    allowAutoTopicCreation: false,
  });
  const pacer = new FetchPacer(consumer, options.gatherMs ?? 0);
  let stopping = false;
  // Commit strategy: the handler's effects are durable when it returns; Kafka commits the offsets after the batch.
  const runBatch = createBatchRunner<T>({
    logger,
    topic,
    groupId,
    deadLetter: { producer: options.producer, topic: options.deadLetterTopic, headers: options.deadLetterHeaders },
    onDrop: (message, reason) => options.onDrop?.(message as ConsumedMessage<T>, reason),
    ...(options.isRetryable === undefined ? {} : { isRetryable: options.isRetryable }),
    ...(options.maxBackoffMs === undefined ? {} : { maxBackoffMs: options.maxBackoffMs }),
    attempt: async (messages, _nextOffset, settle) => {
      const outcomes = messages.length === 0 ? [] : await options.handle(messages);
      await settle(outcomes);
      return outcomes;
    },
  });

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? true });
  const commitIntervalMs = options.commitIntervalMs ?? 1000;
  // Our own commits, not kafkajs' autoCommit: kafkajs commits after every batch whatever its
  // autoCommitInterval says (runner.autoCommitOffsets), one OffsetCommit round trip per batch,
  // which at a low rate is one per message. Here a partition's offset waits in `uncommitted`
  // (set only once the batch's effects are durable) for the timer, or for stop().
  const uncommitted = new Map<number, string>();
  const commitPending = async (): Promise<void> => {
    if (uncommitted.size === 0) return;
    const offsets = [...uncommitted].map(([partition, offset]) => ({ topic, partition, offset }));
    uncommitted.clear();
    await consumer
      .commitOffsets(offsets)
      .catch((error: unknown) => logger.warn({ event: 'kafka_commit_failed', topic, partitions: offsets.map((o) => o.partition), err: error }));
  };
  const commitTimer = commitIntervalMs > 0 ? setInterval(() => void commitPending(), commitIntervalMs) : undefined;
  commitTimer?.unref();
  // A rebalance can move a partition away before the timer commits it: its new owner repeats at most
  // that interval's batches (at least once; the handlers deduplicate). What is pending for a partition
  // no longer ours is dropped, never committed by a member that no longer owns it.
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const assigned = new Set(payload.memberAssignment[topic] ?? []);
    for (const partition of [...uncommitted.keys()]) if (!assigned.has(partition)) uncommitted.delete(partition);
  });
  const inFlight = new Set<Promise<void>>();
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (batch.messages.length === 0 || stopping) return;
      // Rebalanced away or stopping: another owner (or the next start) redoes it.
      const live = () => isRunning() && !isStale() && !stopping;
      const work = (async () => {
        const decoded: ConsumedMessage<T>[] = [];
        const letters: DeadLetter[] = [];
        for (const raw of batch.messages) {
          const result = options.decode(raw.value, raw.headers);
          const message: ConsumedMessage<T> = { topic: batch.topic, partition: batch.partition, offset: raw.offset, key: raw.key, raw, value: undefined as T };
          if (result.ok) decoded.push({ ...message, value: result.value });
          else letters.push({ message, code: result.code, reason: result.message });
        }
        const last = batch.messages[batch.messages.length - 1]!;
        const nextOffset = (BigInt(last.offset) + 1n).toString();
        const done = await runBatch({ partition: batch.partition, messages: decoded, letters, nextOffset: BigInt(nextOffset), live, heartbeat });
        if (!done) return;
        resolveOffset(last.offset);
        if (commitIntervalMs === 0) await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: nextOffset }]);
        else uncommitted.set(batch.partition, nextOffset);
      })();
      inFlight.add(work);
      try {
        await work;
      } finally {
        inFlight.delete(work);
      }
      await heartbeat();
      await pacer.pace(live);
    },
  });

  return {
    consumer,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(commitTimer);
      // The batches in hand finish (their effects durable), and their offsets are committed while
      // this member is still in the group; kafkajs' stop() leaves it.
      await Promise.allSettled([...inFlight]);
      await commitPending();
      await consumer.stop();
      await consumer.disconnect();
    },
  };
}
