import type { Consumer, Kafka, KafkaMessage, IHeaders } from 'kafkajs';
import type { Logger } from 'pino';
import type { Outcome } from './outcome.ts';
import type { BatchingProducer } from './batching-producer.ts';
import { errorFields, isTransient, RETRY_MAX_BACKOFF_MS } from './transient.ts';
import { FetchPacer } from './fetch-pacer.ts';
import { sendDeadLetters, type DeadLetter, type DeadLetterDescription } from './dead-letters.ts';

export interface ConsumedMessage<T> {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  raw: KafkaMessage;
  /** The decoded value, or undefined when decoding failed (the wrapper dead-letters those). */
  value: T;
}

export type Decoder<T> = (value: Buffer | null, headers: IHeaders | undefined) => { ok: true; value: T } | { ok: false; code: string; message: string };

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
   * Offsets are committed by time, at most this often (kafkajs commits what was resolved, so never
   * past a batch whose effects are not durable; also when the consumer stops or the group
   * rebalances); 0: after every batch. A crash repeats at most this long's batches, as at least once allows.
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
  const maxBackoffMs = options.maxBackoffMs ?? RETRY_MAX_BACKOFF_MS;
  const retryable = options.isRetryable ?? isTransient;
  let stopping = false;

  /** Outcomes for `messages`, or undefined when the consumer stopped or lost the partition meanwhile. */
  async function outcomesFor(messages: ConsumedMessage<T>[], live: () => boolean, heartbeat: () => Promise<void>): Promise<Outcome[] | undefined> {
    if (messages.length === 0) return [];
    for (let attempt = 1; ; attempt++) {
      if (!live()) return undefined;
      try {
        const outcomes = await options.handle(messages);
        if (outcomes.length !== messages.length) throw new Error(`handler gave ${outcomes.length} outcomes for ${messages.length} messages`);
        return outcomes;
      } catch (error) {
        if (!retryable(error)) {
          if (messages.length === 1) return [{ kind: 'dead_letter', code: 'handler_failed', message: error instanceof Error ? error.message : String(error) }];
          // Narrow it down: each message alone, so only the one at fault is dead-lettered.
          const each: Outcome[] = [];
          for (const message of messages) {
            const one = await outcomesFor([message], live, heartbeat);
            if (one === undefined) return undefined;
            each.push(one[0]!);
          }
          return each;
        }
        const delay = Math.min(maxBackoffMs, 100 * 2 ** Math.min(attempt, 10));
        logger.warn({ event: 'consumer_batch_retry', topic, partition: messages[0]!.partition, attempt, retry_in_ms: delay, ...errorFields(error) });
        await sleepWithHeartbeat(delay, heartbeat, live);
      }
    }
  }

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? true });
  const commitIntervalMs = options.commitIntervalMs ?? 1000;
  await consumer.run({
    autoCommit: commitIntervalMs > 0,
    ...(commitIntervalMs > 0 ? { autoCommitInterval: commitIntervalMs } : {}),
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (batch.messages.length === 0) return;
      // Rebalanced away or stopping: another owner (or the next start) redoes it.
      const live = () => isRunning() && !isStale() && !stopping;
      const decoded: ConsumedMessage<T>[] = [];
      const letters: DeadLetter[] = [];
      for (const raw of batch.messages) {
        const result = options.decode(raw.value, raw.headers);
        const message: ConsumedMessage<T> = { topic: batch.topic, partition: batch.partition, offset: raw.offset, key: raw.key, raw, value: undefined as T };
        if (result.ok) decoded.push({ ...message, value: result.value });
        else letters.push({ message, code: result.code, reason: result.message });
      }

      const outcomes = await outcomesFor(decoded, live, heartbeat);
      if (outcomes === undefined) return;
      outcomes.forEach((outcome, i) => {
        const message = decoded[i]!;
        if (outcome.kind === 'dead_letter') letters.push({ message, code: outcome.code, reason: outcome.message });
        if (outcome.kind === 'drop') {
          logger.info({ event: 'message_dropped', topic, partition: message.partition, offset: message.offset, reason: outcome.reason });
          options.onDrop?.(message, outcome.reason);
        }
      });
      await sendDeadLetters({ producer: options.producer, topic: options.deadLetterTopic, headers: options.deadLetterHeaders }, groupId, logger, letters);

      const last = batch.messages[batch.messages.length - 1]!;
      resolveOffset(last.offset);
      if (commitIntervalMs === 0) await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
      await heartbeat();
      await pacer.pace(live);
    },
  });

  return {
    consumer,
    async stop() {
      if (stopping) return;
      stopping = true;
      await consumer.stop();
      await consumer.disconnect();
    },
  };
}

/** Waits, heartbeating so the group keeps the partition; ends early when the consumer stops. */
async function sleepWithHeartbeat(ms: number, heartbeat: () => Promise<void>, live: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && live()) {
    await new Promise((r) => setTimeout(r, Math.min(200, until - Date.now())));
    await heartbeat().catch(() => undefined);
  }
}
