import { Kafka, logLevel, type Admin } from 'kafkajs';
import { TEST_KAFKA_BROKERS } from './env.ts';

export function testKafka(brokers = TEST_KAFKA_BROKERS): Kafka {
  return new Kafka({ clientId: 'pulseboard-tests', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
}

/**
 * A topic's offsets. Asked again while the broker answers with a retriable
 * error: a topic created a moment ago may still say "not the leader" for a
 * partition (seen on a busy CI machine, in both test paths).
 */
async function topicOffsets(admin: Admin, topic: string): Promise<{ partition: number; low: string; high: string }[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if ((error as { retriable?: unknown }).retriable !== true || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Every message currently on a topic (all partitions, from the start), read by offsets, not by a consumer group. */
export async function readTopic(topic: string): Promise<{ key: string | null; value: string | null; headers: Record<string, string> }[]> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    if (!topics.includes(topic)) return [];
    const offsets = await topicOffsets(admin, topic);
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
    const offsets = await topicOffsets(admin, topic);
    return offsets.reduce((sum, o) => sum + Number(o.high) - Number(o.low), 0);
  } finally {
    await admin.disconnect();
  }
}
