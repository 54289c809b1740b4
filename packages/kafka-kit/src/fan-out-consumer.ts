import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { Decoder } from './consume/types.ts';
import { FetchPacer } from './consume/fetch-pacer.ts';
import { isTransient } from './transient.ts';

export interface FanOutConsumerOptions<T> {
  kafka: Kafka;
  logger: Logger;
  topic: string;
  /** The instance's group is `<groupPrefix>-<random>`: its own, so it receives every message. */
  groupPrefix: string;
  decode: Decoder<T>;
  /** When given, a message whose key it refuses is passed over undecoded (a reader that wants a few keys of a busy topic). */
  accept?: (key: Buffer | null) => boolean;
  /** Called for each decoded message, in order per partition. Errors are logged; the message is not retried. */
  handle: (value: T, message: KafkaMessage, partition: number) => void | Promise<void>;
  /** Told each message that could not be decoded (logged and skipped). */
  onUndecodable?: (reason: string) => void;
  sessionTimeoutMs?: number;
  /**
   * A busy topic read beside latency-sensitive work (broadcast's event tail): the broker's answer is
   * bounded to this many bytes per partition, so kafkajs decodes a small fetch at a time, and the
   * batch loop gives the event loop back every `yieldEvery` messages, so other sockets are served
   * in between. Unset: kafkajs' defaults (1 MiB) and no yielding.
   */
  maxBytesPerPartition?: number;
  yieldEvery?: number;
  /** Time-bounded batching: a fetch that brought messages is followed by the next no sooner than this after it began (see FetchPacer); 0: at once. */
  gatherMs?: number;
}

export interface RunningFanOutConsumer {
  groupId: string;
  /** True once the consumer has its partitions and its start offsets: messages produced after this arrive. */
  ready(): boolean;
  whenReady(): Promise<void>;
  /** Leaves and deletes the instance's group, so groups do not pile up on the broker. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A consumer every instance of a service runs to see every message of a topic
 * (broadcast, gateways waiting for the rule engine's outcomes): a group of its
 * own that starts at the latest offset, never commits and never dead-letters.
 * What happened before the instance started is read elsewhere (Postgres), not
 * replayed from Kafka.
 */
export async function runFanOutConsumer<T>(options: FanOutConsumerOptions<T>): Promise<RunningFanOutConsumer> {
  const { kafka, logger, topic } = options;
  const groupId = `${options.groupPrefix}-${randomUUID()}`;
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 10_000,
    heartbeatInterval: 1000,
    allowAutoTopicCreation: false,
    // The broker answers a fetch as soon as one byte is there (minBytes 1), so this only
    // bounds an idle fetch: short enough for a quick stop, long enough not to poll.
    maxWaitTimeInMs: 500,
    ...(options.maxBytesPerPartition === undefined ? {} : { maxBytesPerPartition: options.maxBytesPerPartition, maxBytes: options.maxBytesPerPartition * 6 }),
  });
  const yieldEvery = options.yieldEvery ?? 0;
  const pacer = new FetchPacer(consumer, options.gatherMs ?? 0);
  let joined = false;
  let isReady = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));
  // Where it starts: the topic's end, read before joining, and sought to on the first join. A message
  // produced later has a later offset, so it arrives however long the join takes, and the consumer is
  // ready as soon as it has its partitions. (Left to kafkajs, the start is resolved within the first
  // fetch, whose answer is then the only sign of it: on a quiet topic that answer is the long poll's
  // end, maxWaitTimeInMs, half a second added to every start-up of every service.)
  const start = await endOffsets(kafka, topic);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    if (joined) return; // a later join (this one-member group's rebalance) is left to kafkajs, as it always was
    joined = true;
    for (const partition of payload.memberAssignment[topic] ?? []) {
      const offset = start.get(partition);
      if (offset !== undefined) consumer.seek({ topic, partition, offset });
    }
    isReady = true;
    markReady();
  });

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, isRunning, isStale, resolveOffset }) => {
      const partition = batch.partition;
      let handled = 0;
      for (const message of batch.messages) {
        if (yieldEvery > 0 && ++handled % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
        if (!isRunning() || isStale()) return;
        if (options.accept !== undefined && !options.accept(message.key)) {
          resolveOffset(message.offset);
          continue;
        }
        const decoded = options.decode(message.value, message.headers);
        if (!decoded.ok) {
          logger.warn({ event: 'fan_out_message_undecodable', topic, partition, offset: message.offset, reason: decoded.code });
          options.onUndecodable?.(decoded.code);
        } else {
          try {
            await options.handle(decoded.value, message, partition);
          } catch (error) {
            logger.warn({ event: 'fan_out_handler_failed', topic, partition, offset: message.offset, err: error });
          }
        }
        resolveOffset(message.offset);
      }
      await pacer.pace(() => isRunning() && !isStale());
    },
  });

  let stopped: Promise<void> | undefined;
  return {
    groupId,
    ready: () => isReady,
    whenReady: () => readyPromise,
    stop() {
      stopped ??= (async () => {
        await consumer.disconnect();
        const admin = kafka.admin();
        await admin.connect();
        try {
          await admin.deleteGroups([groupId]);
        } catch (error) {
          logger.warn({ event: 'fan_out_group_not_deleted', group: groupId, err: error });
        } finally {
          await admin.disconnect();
        }
      })();
      return stopped;
    },
  };
}

/**
 * Each partition's end (the offset the next message gets), now. A topic created a moment ago may have
 * no leaders yet (NOT_LEADER_FOR_PARTITION and the like, retriable): asked again while the failure is
 * transient (`isTransient`, as every consumer here judges it), for a bounded time.
 */
async function endOffsets(kafka: Kafka, topic: string, withinMs = 15_000): Promise<Map<number, string>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + withinMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, p.high]));
      } catch (error) {
        if (!isTransient(error) || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * attempt, 500)));
      }
    }
  } finally {
    await admin.disconnect();
  }
}
