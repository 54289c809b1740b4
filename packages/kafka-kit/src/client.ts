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

/** Creates topics that do not exist yet; existing ones are left as they are. */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      await admin.createTopics({ waitForLeaders: true, topics: missing.map((t) => ({ ...t, replicationFactor: -1 })) });
    }
  } finally {
    await admin.disconnect();
  }
}
