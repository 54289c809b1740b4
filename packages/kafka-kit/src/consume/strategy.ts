import type { KafkaMessage } from 'kafkajs';
import { createBatchRunner, type BatchRunnerOptions } from './runner.ts';
import { decodeBatch } from './decode.ts';
import { resultOf, type Decoder, type Handler } from './types.ts';

/** One partition's batch of a fetch, as the core hands it to the offsets strategy. */
export interface FetchedBatch {
  partition: number;
  messages: KafkaMessage[];
  /** The offset after the batch. */
  nextOffset: bigint;
  /** False once the consumer stops or loses the partition. */
  live: () => boolean;
  heartbeat: () => Promise<void>;
}

/** Where the offsets live, and so how a batch is applied: the one thing the consumers do differently. */
export interface OffsetsStrategy {
  /** kafkajs' partitionsConsumedConcurrently for the strategy (the shared transaction wants every batch of a fetch in hand at once). */
  concurrency: number;
  /** The group's assignment after a (re)join. */
  onAssigned(assigned: readonly number[]): void;
  /** Applies the batch; true when the core may move the partition's offset past it. */
  apply(batch: FetchedBatch): Promise<boolean>;
  /** After the consumer left the group: the work in hand finished, memory released. */
  stopped(): Promise<void>;
}

/**
 * Offsets in Kafka (or nowhere: a fan-out feed): the handler's effects are durable when it returns,
 * the core then moves the offset. Decoding, then the runner (retry, narrowing to the bad message,
 * dead letters before the offset moves), then the handler.
 */
export function kafkaOffsets<T>(
  decode: Decoder<T>,
  handler: Handler<T>,
  runner: Omit<BatchRunnerOptions<T>, 'attempt'>,
  concurrency: number,
  accept?: (key: Buffer | null) => boolean,
): OffsetsStrategy {
  const run = createBatchRunner<T>({
    ...runner,
    attempt: async (batch, _next, settle) => {
      const result = resultOf(batch.length === 0 ? [] : await handler(batch, { partition: batch[0]!.partition }));
      await settle(result.outcomes);
      result.committed?.();
      return result.outcomes;
    },
  });
  return {
    concurrency,
    onAssigned: () => undefined,
    stopped: async () => undefined,
    apply: ({ partition, messages, nextOffset, live, heartbeat }) => {
      const { decoded, letters } = decodeBatch(decode, runner.topic, partition, messages, accept);
      return run({ partition, messages: decoded, letters, nextOffset, live, heartbeat });
    },
  };
}
