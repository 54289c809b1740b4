import { BatchingProducer, createKafka, ensureTopics } from '../../packages/kafka-kit/src/index.ts';
import { createLogger } from '../../packages/config/src/index.ts';

/**
 * The broker's own round trip for what the gateway sends: sequential produce
 * requests of `size` messages (idempotent, acks=all) through the same producer
 * code, nothing else in the path. No request through the gateway can be
 * answered faster than this, which is what bounds /ingest's p50 and p99.
 */
export async function brokerRoundTrip(brokers: string, topic: string, size: number, requests: number): Promise<{ p50: number; p99: number }> {
  const logger = createLogger('bench-broker', 'error');
  const kafka = createKafka({ clientId: 'bench-broker-rtt', brokers: brokers.split(','), logger });
  await ensureTopics(kafka, [{ topic, numPartitions: 6 }]);
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  producer.start();
  const value = 'x'.repeat(300);
  const messages = Array.from({ length: size }, (_, i) => ({
    key: `bench-${i % 3}`,
    value,
    headers: { 'content-type': 'application/json', 'pb-schema': 'ingested-event/1', 'pb-event-id': String(i) },
  }));
  try {
    for (let i = 0; i < 20; i++) await producer.sendMany(topic, messages);
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      await producer.sendMany(topic, messages);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.ceil(times.length * 0.99) - 1]! };
  } finally {
    await producer.stop();
  }
}
