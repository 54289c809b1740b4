import { Kafka, logLevel } from 'kafkajs';
import { TEST_KAFKA_BROKERS } from './env.ts';

export function testKafka(brokers = TEST_KAFKA_BROKERS): Kafka {
  return new Kafka({ clientId: 'pulseboard-tests', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
}

/** Every message currently on a topic (all partitions, from the start), read by offsets, not by a consumer group. */
export async function readTopic(topic: string): Promise<{ key: string | null; value: string | null; headers: Record<string, string> }[]> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    if (!topics.includes(topic)) return [];
    const offsets = await admin.fetchTopicOffsets(topic);
    const total = offsets.reduce((sum, o) => sum + (Number(o.high) - Number(o.low)), 0);
    if (total === 0) return [];
    const consumer = kafka.consumer({ groupId: `reader-${Math.random().toString(36).slice(2)}` });
    const out: { key: string | null; value: string | null; headers: Record<string, string> }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${out.length}/${total} messages of ${topic}`)), 20000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
          out.push({ key: message.key?.toString() ?? null, value: message.value?.toString() ?? null, headers });
          if (out.length >= total) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();
    return out;
  } finally {
    await admin.disconnect();
  }
}

/** Partition high-water marks summed: how many messages a topic holds. */
export async function topicMessageCount(topic: string): Promise<number> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return 0;
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, o) => sum + Number(o.high) - Number(o.low), 0);
  } finally {
    await admin.disconnect();
  }
}
