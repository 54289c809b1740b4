import type { KafkaMessage } from 'kafkajs';
import type { DeadLetter } from './dead-letters.ts';
import type { ConsumedMessage, Decoder } from './types.ts';

/**
 * The decoding step in front of every handler: the messages to apply, and the undecodable ones as
 * letters (parked on the dead-letter topic, or dropped without one: the runner decides). A message
 * whose key `accept` refuses is passed over undecoded (a reader that wants a few keys of a busy topic).
 */
export function decodeBatch<T>(
  decode: Decoder<T>,
  topic: string,
  partition: number,
  raws: readonly KafkaMessage[],
  accept?: (key: Buffer | null) => boolean,
): { decoded: ConsumedMessage<T>[]; letters: DeadLetter[] } {
  const decoded: ConsumedMessage<T>[] = [];
  const letters: DeadLetter[] = [];
  for (const raw of raws) {
    if (accept !== undefined && !accept(raw.key)) continue;
    const result = decode(raw.value, raw.headers);
    if (result.ok) decoded.push({ topic, partition, offset: raw.offset, key: raw.key, raw, value: result.value });
    else letters.push({ message: { topic, partition, offset: raw.offset, raw }, code: result.code, reason: result.message });
  }
  return { decoded, letters };
}
