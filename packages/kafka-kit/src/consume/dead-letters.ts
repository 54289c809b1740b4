import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { DeadLetterInfo } from '@pulseboard/contracts';
import type { BatchingProducer } from '../batching-producer.ts';

/** Where a dead letter came from and why (the shape the contracts' dead-letter headers are made from). */
export type DeadLetterDescription = DeadLetterInfo;

/** Where a consumer parks what it can never apply. */
export interface DeadLetterTarget {
  /** Writes the dead letters (acks=all) before offsets move past them. */
  producer: BatchingProducer;
  topic: string;
  /** Headers a dead letter carries besides the original's: why, where from, when (the service's names). */
  headers: (info: DeadLetterDescription) => IHeaders;
}

/** A message to park and why. */
export interface DeadLetter {
  message: { topic: string; partition: number; offset: string; raw: KafkaMessage };
  code: string;
  reason: string;
}

/** Sends each letter with the original key and bytes plus the target's headers; resolves once Kafka has them all. */
export async function sendDeadLetters(target: DeadLetterTarget, groupId: string, logger: Logger, letters: readonly DeadLetter[]): Promise<void> {
  await Promise.all(
    letters.map(async ({ message, code, reason }) => {
      logger.warn({ event: 'message_dead_lettered', topic: message.topic, partition: message.partition, offset: message.offset, code });
      await target.producer.send(target.topic, {
        key: message.raw.key?.toString('utf8') ?? '',
        value: message.raw.value ?? Buffer.alloc(0),
        headers: {
          ...(message.raw.headers ?? {}),
          ...target.headers({ code, message: reason, topic: message.topic, partition: message.partition, offset: message.offset, groupId }),
        },
      });
    }),
  );
}
