import { TOPICS } from '@pulseboard/contracts';
import type { TopicSpec } from '@pulseboard/kafka-kit';

/**
 * The events topic as the gateway creates it. Its `max.message.bytes` must hold
 * what one request can turn into: every event of a body up to BODY_LIMIT_BYTES,
 * plus what the gateway adds to each (id, account, receipt time, headers). The
 * broker's default (1 MiB) would refuse a valid 1 MiB event, so the topic gets
 * twice the body limit. Shared produce requests stay below the default anyway
 * (KAFKA_BATCH_MAX_BYTES), so only a single large request ever needs this.
 */
export function eventsTopicSpec(topic: string, env: { BODY_LIMIT_BYTES: number; KAFKA_BATCH_MAX_BYTES: number }): TopicSpec {
  const maxMessageBytes = Math.max(2 * env.BODY_LIMIT_BYTES, env.KAFKA_BATCH_MAX_BYTES) + 64 * 1024;
  return { topic, numPartitions: TOPICS.events.partitions, configEntries: [{ name: 'max.message.bytes', value: String(maxMessageBytes) }] };
}
