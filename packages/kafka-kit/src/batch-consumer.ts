import type { Consumer, Kafka, KafkaMessage, IHeaders } from 'kafkajs';
import type { Logger } from 'pino';
import type { Outcome } from './outcome.ts';
import type { BatchingProducer } from './batching-producer.ts';

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
  /** Used to write dead letters (acks=all) before offsets move past them. */
  producer: BatchingProducer;
  decode: Decoder<T>;
  /** Returns one outcome per message, in order. Throw (retryable) to retry the whole batch. */
  handle: (messages: ConsumedMessage<T>[]) => Promise<Outcome[]>;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  maxBackoffMs?: number;
  sessionTimeoutMs?: number;
}

export interface RunningConsumer {
  /** Stops fetching, lets the batch in hand finish, commits, leaves the group. Safe to call twice. */
  stop(): Promise<void>;
  consumer: Consumer;
}

function deadLetterHeaders(m: ConsumedMessage<unknown>, groupId: string, code: string, message: string): IHeaders {
  return {
    ...(m.raw.headers ?? {}),
    'pb-dlq-reason': code,
    'pb-dlq-message': message.slice(0, 1000),
    'pb-dlq-topic': m.topic,
    'pb-dlq-partition': String(m.partition),
    'pb-dlq-offset': m.offset,
    'pb-dlq-consumer-group': groupId,
    'pb-dlq-at': new Date().toISOString(),
  };
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
    heartbeatInterval: 3000,
    maxBytesPerPartition: 4 * 1024 * 1024,
    allowAutoTopicCreation: false,
  });
  const maxBackoffMs = options.maxBackoffMs ?? 10000;
  let stopping = false;

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (batch.messages.length === 0) return;
      const decoded: ConsumedMessage<T>[] = [];
      const undecodable: { message: ConsumedMessage<T>; code: string; reason: string }[] = [];
      for (const raw of batch.messages) {
        const result = options.decode(raw.value, raw.headers);
        const message: ConsumedMessage<T> = { topic: batch.topic, partition: batch.partition, offset: raw.offset, key: raw.key, raw, value: undefined as T };
        if (result.ok) decoded.push({ ...message, value: result.value });
        else undecodable.push({ message, code: result.code, reason: result.message });
      }

      let outcomes: Outcome[] = [];
      for (let attempt = 1; ; attempt++) {
        if (!isRunning() || isStale()) return; // rebalanced away or stopping: another owner redoes it
        try {
          outcomes = decoded.length === 0 ? [] : await options.handle(decoded);
          break;
        } catch (error) {
          const delay = Math.min(maxBackoffMs, 100 * 2 ** Math.min(attempt, 10));
          logger.warn({ event: 'consumer_batch_retry', topic, partition: batch.partition, attempt, retry_in_ms: delay, err: error });
          await sleepWithHeartbeat(delay, heartbeat);
        }
      }

      const letters = undecodable.map((u) => ({ message: u.message, code: u.code, reason: u.reason }));
      outcomes.forEach((outcome, i) => {
        const message = decoded[i];
        if (message !== undefined && outcome.kind === 'dead_letter') letters.push({ message, code: outcome.code, reason: outcome.message });
      });
      await Promise.all(
        letters.map(async ({ message, code, reason }) => {
          logger.warn({ event: 'message_dead_lettered', topic, partition: message.partition, offset: message.offset, code });
          await options.producer.send(options.deadLetterTopic, {
            key: message.key?.toString('utf8') ?? '',
            value: message.raw.value ?? Buffer.alloc(0),
            headers: deadLetterHeaders(message, groupId, code, reason),
          });
        }),
      );

      const last = batch.messages[batch.messages.length - 1]!;
      resolveOffset(last.offset);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
      await heartbeat();
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

async function sleepWithHeartbeat(ms: number, heartbeat: () => Promise<void>): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(1000, until - Date.now())));
    await heartbeat().catch(() => undefined);
  }
}
