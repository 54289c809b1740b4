import { TOPICS } from './topics.ts';

/** How a topic is created; kafka-kit's `ensureTopics` takes this shape. */
export interface TopicCreationSpec {
  topic: string;
  numPartitions: number;
  configEntries?: { name: string; value: string }[];
}

/**
 * Room a message of the events topics needs. One request can turn into an
 * event of up to the body limit plus what the gateway adds (id, account,
 * receipt time, headers), and a dead letter carries those bytes plus its own
 * headers; the broker's default (1 MiB) would refuse a valid 1 MiB event. So
 * twice the body limit, and never less than a shared produce request.
 * Whichever service starts first creates the topics, so all of them use this.
 */
function eventsMaxMessageBytes(bodyLimitBytes: number, batchMaxBytes = 0): number {
  return Math.max(2 * bodyLimitBytes, batchMaxBytes) + 64 * 1024;
}

export function eventsTopicSpec(topic: string, env: { BODY_LIMIT_BYTES: number; KAFKA_BATCH_MAX_BYTES?: number }): TopicCreationSpec {
  return {
    topic,
    numPartitions: TOPICS.events.partitions,
    configEntries: [{ name: 'max.message.bytes', value: String(eventsMaxMessageBytes(env.BODY_LIMIT_BYTES, env.KAFKA_BATCH_MAX_BYTES)) }],
  };
}

export function eventsDeadLetterTopicSpec(topic: string, env: { BODY_LIMIT_BYTES: number }): TopicCreationSpec {
  return {
    topic,
    numPartitions: TOPICS.eventsDeadLetter.partitions,
    configEntries: [{ name: 'max.message.bytes', value: String(eventsMaxMessageBytes(env.BODY_LIMIT_BYTES)) }],
  };
}
