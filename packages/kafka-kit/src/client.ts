import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';

/** kafkajs logs through our pino logger, as `kafka_*` events, at warn and above by default. */
export function createKafka(options: { clientId: string; brokers: string[]; logger: Logger; connectionTimeoutMs?: number }): Kafka {
  const logCreator: KafkaConfig['logCreator'] = () => (entry: LogEntry) => {
    const { message, ...context } = entry.log;
    const fields = { event: 'kafka_client_log', namespace: entry.namespace, kafka_message: message, ...context };
    if (entry.level === logLevel.ERROR) options.logger.error(fields);
    else if (entry.level === logLevel.WARN) options.logger.warn(fields);
    else options.logger.debug(fields);
  };
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    logCreator,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 8 },
  });
}

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  /** Topic-level configuration applied when the topic is created (e.g. `max.message.bytes`). */
  configEntries?: { name: string; value: string }[];
}

const RETRIABLE_METADATA = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'REQUEST_TIMED_OUT']);

function errorTypes(error: unknown): string[] {
  const e = error as { type?: unknown; errors?: unknown[] } | null;
  const own = typeof e?.type === 'string' ? [e.type] : [];
  const inner = Array.isArray(e?.errors) ? e.errors.flatMap(errorTypes) : [];
  return [...own, ...inner];
}

/**
 * Creates topics that do not exist yet (existing ones are left as they are),
 * then waits, bounded, until every partition of every topic has a leader. The
 * wait is ours, not kafkajs' `waitForLeaders`: on a KRaft broker a new topic is
 * briefly unknown to the metadata (UNKNOWN_TOPIC_OR_PARTITION), which kafkajs
 * does not retry, and a service or test then failed to start under load.
 */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[], options: { timeoutMs?: number } = {}): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      try {
        await admin.createTopics({ waitForLeaders: false, topics: missing.map((t) => ({ ...t, replicationFactor: -1 })) });
      } catch (error) {
        // Another process (the store, another gateway) created it meanwhile.
        const types = errorTypes(error);
        if (types.length === 0 || !types.every((type) => type === 'TOPIC_ALREADY_EXISTS')) throw error;
      }
    }
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
        if (metadata.length === topics.length && metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        if (!errorTypes(error).some((type) => RETRIABLE_METADATA.has(type))) throw error;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for leaders of ${topics.map((t) => t.topic).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

/** How many partitions a topic has (the topic must exist). */
export async function partitionCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}
