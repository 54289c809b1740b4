import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { testKafka, testTopicPrefix, uniqueName, waitFor } from '@pulseboard/test-kit';
import { ensureTopics } from '../client.ts';
import { consume, type Consuming } from './consume.ts';
import { eachMessage } from './middleware.ts';

const logger = pino({ level: 'silent' });
const decode = (value: Buffer | null) =>
  value === null ? { ok: false as const, code: 'empty', message: 'empty' } : { ok: true as const, value: value.toString() };

describe('fan-out consumer', () => {
  const kafka = testKafka();
  const running: Consuming[] = [];
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
  });

  it('gives every instance every message from the latest offset, and leaves no group behind', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('fan-out')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 3 }]);
    const producer = kafka.producer();
    await producer.connect();
    // Before the consumers exist: not replayed.
    await producer.send({ topic, messages: [{ key: 'a', value: 'old' }] });

    const seen: string[][] = [[], []];
    for (const i of [0, 1]) {
      const consumer = await consume({
        kafka,
        logger,
        topic,
        group: { fanOut: 'test-fan-out' },
        offsets: 'none',
        decode,
        handler: eachMessage((value) => void seen[i]!.push(value)),
      });
      running.push(consumer);
    }
    await Promise.all(running.map((c) => c.whenReady()));
    expect(running[0]!.groupId).not.toBe(running[1]!.groupId);

    const values = Array.from({ length: 30 }, (_, i) => `m${i}`);
    await producer.send({ topic, messages: values.map((value, i) => ({ key: `k${i % 5}`, value })) });
    await producer.send({ topic, messages: [{ key: 'k0', value: null }] });
    await waitFor(() => seen.every((s) => s.length === values.length), { timeoutMs: 15000, what: 'both instances to see all 30 messages' });
    for (const s of seen) expect([...s].sort()).toEqual([...values].sort());
    await producer.disconnect();

    const groups = running.map((c) => c.groupId);
    await Promise.all(running.map((c) => c.stop()));
    const admin = kafka.admin();
    await admin.connect();
    const listed = (await admin.listGroups()).groups.map((g) => g.groupId);
    await admin.disconnect();
    for (const group of groups) expect(listed).not.toContain(group);
  });

  it('starts on a topic created a moment ago (its leaders not elected yet) and gets what is produced once it is ready', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('fan-out-fresh')}`;
    // No produce in between: the consumer reads the topic's end while the new partitions may still have no
    // leader (12 of them, so that at least one usually has none yet).
    await ensureTopics(kafka, [{ topic, numPartitions: 12 }]);
    const seen: string[] = [];
    const consumer = await consume({
      kafka,
      logger,
      topic,
      group: { fanOut: 'test-fan-out-fresh' },
      offsets: 'none',
      decode,
      handler: eachMessage((value) => void seen.push(value)),
    });
    running.push(consumer);
    await consumer.whenReady();
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: ['x', 'y', 'z'].map((value, i) => ({ key: `k${i}`, value })) });
    await producer.disconnect();
    await waitFor(() => seen.length === 3, { timeoutMs: 15000, what: 'the three messages' });
    expect([...seen].sort()).toEqual(['x', 'y', 'z']);
  });
});
