import type { Admin, Kafka } from 'kafkajs';
import type { PartitionEnds } from '@pulseboard/contracts';

/** A topic's offsets per partition, and when the request for them was sent (epoch ms). */
export interface TopicEnds {
  /** Everything acknowledged before `at` is below `high`. */
  at: number;
  partitions: Map<number, PartitionEnds>;
}

export interface EndOffsetsReader {
  /** The topic's end offsets, read at most once per `maxAgeMs` (callers share a read under way); undefined when the broker did not answer (asked again `maxAgeMs` later). */
  read(): Promise<TopicEnds | undefined>;
  stop(): Promise<void>;
}

/**
 * Reads a topic's end offsets (ListOffsets) with one admin client, bounded in
 * time, at most once per `maxAgeMs` whoever asks: a route answering many
 * requests, or a loop, costs the broker one request a second.
 */
export function endOffsetsReader(kafka: Kafka, topic: string, options: { maxAgeMs?: number; timeoutMs?: number } = {}): EndOffsetsReader {
  const maxAgeMs = options.maxAgeMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 3000;
  let admin: Promise<Admin> | undefined;
  let last: TopicEnds | undefined;
  /** When the last read that failed began: the broker is asked again only `maxAgeMs` after it. */
  let failedAt = -Infinity;
  let reading: Promise<TopicEnds | undefined> | undefined;

  const connected = () =>
    (admin ??= (async () => {
      const a = kafka.admin({ retry: { retries: 0 } });
      await a.connect();
      return a;
    })());

  async function fetchEnds(): Promise<TopicEnds | undefined> {
    const at = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('kafka end offsets timed out')), timeoutMs)));
    try {
      const offsets = await Promise.race([connected().then((a) => a.fetchTopicOffsets(topic)), timeout]);
      last = { at, partitions: new Map(offsets.map((o) => [o.partition, { low: BigInt(o.low), high: BigInt(o.high) }])) };
      return last;
    } catch {
      // A fresh client next time; no figure rather than a stale one.
      failedAt = at;
      const stale = admin;
      admin = undefined;
      void stale?.then((a) => a.disconnect()).catch(() => undefined);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    read() {
      const now = Date.now();
      if (last !== undefined && now - last.at < maxAgeMs) return Promise.resolve(last);
      if (now - failedAt < maxAgeMs) return Promise.resolve(undefined);
      reading ??= fetchEnds().finally(() => (reading = undefined));
      return reading;
    },
    async stop() {
      const open = admin;
      admin = undefined;
      await open?.then((a) => a.disconnect()).catch(() => undefined);
    },
  };
}
