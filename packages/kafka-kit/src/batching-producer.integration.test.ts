import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { freePort, readTopic, TEST_KAFKA_BROKERS, testTopicPrefix, uniqueName, waitFor } from '@pulseboard/test-kit';
import { createKafka, ensureTopics } from './client.ts';
import { BatchingProducer } from './batching-producer.ts';

const logger = pino({ level: 'silent' });
const producers: BatchingProducer[] = [];
afterAll(async () => {
  await Promise.all(producers.map((p) => p.stop()));
});

async function producerFor(
  topic: string,
  options: {
    maxBatchBytes?: number;
    lanes?: number;
    lingerMs?: number;
    configEntries?: { name: string; value: string }[];
    onProduceRequest?: (messages: number) => void;
  } = {},
) {
  const kafka = createKafka({ clientId: 'kafka-kit-test', brokers: TEST_KAFKA_BROKERS.split(','), logger });
  await ensureTopics(kafka, [{ topic, numPartitions: 3, ...(options.configEntries === undefined ? {} : { configEntries: options.configEntries }) }]);
  const producer = new BatchingProducer({
    kafka,
    logger,
    lingerMs: options.lingerMs ?? 2,
    lanes: options.lanes ?? 1,
    ...(options.maxBatchBytes === undefined ? {} : { maxBatchBytes: options.maxBatchBytes }),
    ...(options.onProduceRequest === undefined ? {} : { onProduceRequest: options.onProduceRequest }),
  });
  producer.start();
  producers.push(producer);
  return producer;
}

const topicName = () => `${testTopicPrefix()}${uniqueName('kit')}`;

describe('BatchingProducer against the real broker', () => {
  it.each([1, 3])("delivers every concurrent caller's messages, each caller's in order (%i lane(s))", async (lanes) => {
    const topic = topicName();
    const producer = await producerFor(topic, { lanes });
    await Promise.all(
      Array.from({ length: 30 }, (_, caller) =>
        producer.sendMany(
          topic,
          Array.from({ length: 10 }, (_, i) => ({ key: `caller-${caller}`, value: JSON.stringify({ caller, i }) })),
        ),
      ),
    );
    const messages = await readTopic(topic);
    expect(messages.length).toBe(300);
    for (let caller = 0; caller < 30; caller++) {
      const mine = messages.filter((m) => m.key === `caller-${caller}`).map((m) => JSON.parse(m.value!).i);
      expect(mine).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('with lingerMs 0 still sends the callers of one event-loop turn in one produce request', async () => {
    const topic = topicName();
    const requests: number[] = [];
    const producer = await producerFor(topic, { lingerMs: 0, onProduceRequest: (messages) => requests.push(messages) });
    await producer.send(topic, { key: 'warm-up', value: 'x' });
    requests.length = 0;
    // Released together, as the limiter's answer releases a whole micro-batch of requests.
    await Promise.all(Array.from({ length: 20 }, (_, i) => producer.send(topic, { key: `k${i}`, value: String(i) })));
    // Shared, not one request per caller (a request may close early at a size bound, hence not exactly one).
    expect(requests.reduce((a, b) => a + b, 0)).toBe(20);
    expect(requests.length).toBeLessThanOrEqual(2);
    expect((await readTopic(topic)).length).toBe(21);
  });

  it.each([0, 10_000])('stop() sends what is still lingering (lingerMs %i), once, and is safe to call twice', async (lingerMs) => {
    const topic = topicName();
    const producer = await producerFor(topic, { lingerMs });
    await waitFor(() => producer.ready, { what: 'the producer to connect' });
    const lingering = producer.send(topic, { key: 'late', value: 'y' });
    await Promise.all([producer.stop(), producer.stop()]);
    await lingering;
    expect((await readTopic(topic)).map((m) => m.key)).toEqual(['late']);
    // A setImmediate cleared as if it were a timer (or the reverse) would leave Node's queue inconsistent.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('splits shared produce requests at maxBatchBytes and still delivers everything', async () => {
    const topic = topicName();
    const requests: number[] = [];
    const producer = await producerFor(topic, { maxBatchBytes: 4096, onProduceRequest: (messages) => requests.push(messages) });
    await Promise.all(Array.from({ length: 50 }, (_, i) => producer.send(topic, { key: `k${i % 5}`, value: 'x'.repeat(1000) })));
    expect((await readTopic(topic)).length).toBe(50);
    // Reported per produce request (the gateway's metric): ~1 KiB messages, at most 3 fit in 4 KiB.
    expect(requests.reduce((a, b) => a + b, 0)).toBe(50);
    expect(Math.max(...requests)).toBeLessThanOrEqual(3);
    expect(requests.length).toBeGreaterThanOrEqual(17);
  });

  it('writes the events of a client that waits for each acknowledgement in the order it sent them, over several lanes', async () => {
    const topic = topicName();
    const producer = await producerFor(topic, { lanes: 3 });
    // Three clients, each sending one message at a time; other traffic keeps every lane busy.
    const noise = Array.from({ length: 200 }, (_, i) => producer.send(topic, { key: `noise-${i % 9}`, value: String(i) }));
    await Promise.all(
      [0, 1, 2].map(async (client) => {
        for (let i = 0; i < 30; i++) await producer.send(topic, { key: `client-${client}`, value: String(i) });
      }),
    );
    await Promise.all(noise);
    const messages = await readTopic(topic);
    for (const client of [0, 1, 2]) {
      expect(messages.filter((m) => m.key === `client-${client}`).map((m) => Number(m.value))).toEqual(Array.from({ length: 30 }, (_, i) => i));
    }
  });

  it("refuses a message too large for the topic with a non-retryable 413 error, without failing anyone else's", async () => {
    const topic = topicName();
    // Shared requests stay below the topic's limit (as the default 900 KiB stays below the broker's 1 MiB).
    const producer = await producerFor(topic, { maxBatchBytes: 10_000, configEntries: [{ name: 'max.message.bytes', value: '20000' }] });
    const small = Array.from({ length: 20 }, (_, i) => producer.send(topic, { key: `small-${i}`, value: 'ok' }));
    const big = producer.send(topic, { key: 'big', value: 'x'.repeat(50_000) });
    const [bigResult, ...smallResults] = await Promise.allSettled([big, ...small]);
    expect(bigResult.status).toBe('rejected');
    expect((bigResult as PromiseRejectedResult).reason).toMatchObject({ code: 'kafka_message_too_large', retryable: false, status: 413 });
    expect(smallResults.every((r) => r.status === 'fulfilled')).toBe(true);
    const stored = await readTopic(topic);
    expect(stored.map((m) => m.key).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `small-${i}`).sort());
  });

  it('rejects with a retryable kafka_unavailable within the delivery timeout when no broker answers', async () => {
    const port = await freePort();
    const kafka = createKafka({ clientId: 'kafka-kit-test', brokers: [`127.0.0.1:${port}`], logger });
    const producer = new BatchingProducer({ kafka, logger, deliveryTimeoutMs: 500 });
    producer.start();
    producers.push(producer);
    const result = await Promise.race([
      producer.sendMany('never', [{ key: 'k', value: 'v' }]).then(
        () => 'delivered',
        (e: unknown) => e,
      ),
      new Promise((resolve) => setTimeout(() => resolve('hung'), 20_000)),
    ]);
    expect(result).toMatchObject({ code: 'kafka_unavailable', retryable: true, status: 503 });
  });
});
