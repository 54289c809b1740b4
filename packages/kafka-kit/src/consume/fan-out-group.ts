import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { isTransient } from '../transient.ts';

/**
 * A group of the instance's own (`<prefix>-<random>`), so that every instance sees every message,
 * starting at the topic's end: what happened before the instance started is read elsewhere
 * (Postgres), not replayed from Kafka. The end is read before joining and sought to on the first
 * join, so a message produced later arrives however long the join takes, and the consumer is ready
 * as soon as it has its partitions (left to kafkajs, the start is resolved within the first fetch,
 * whose answer on a quiet topic is the long poll's end: half a second added to every start-up).
 */
export class FanOutGroup {
  readonly groupId: string;
  private start = new Map<number, string>();
  private joined = false;

  constructor(prefix: string) {
    this.groupId = `${prefix}-${randomUUID()}`;
  }

  async prepare(kafka: Kafka, topic: string): Promise<void> {
    this.start = await endOffsets(kafka, topic);
  }

  /** On a join: the first seeks each partition to where it starts; a later one (this one-member group's rebalance) is left to kafkajs. */
  onJoin(consumer: Consumer, topic: string, assigned: readonly number[]): void {
    if (this.joined) return;
    this.joined = true;
    for (const partition of assigned) {
      const offset = this.start.get(partition);
      if (offset !== undefined) consumer.seek({ topic, partition, offset });
    }
  }

  /** Deletes the instance's group once it left, so groups do not pile up on the broker. */
  async remove(kafka: Kafka, logger: Logger): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.deleteGroups([this.groupId]);
    } catch (error) {
      logger.warn({ event: 'fan_out_group_not_deleted', group: this.groupId, err: error });
    } finally {
      await admin.disconnect();
    }
  }
}

/**
 * Each partition's end (the offset the next message gets), now. A topic created a moment ago may have
 * no leaders yet (retriable): asked again while the failure is transient, for a bounded time.
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
