import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deadLetterHeaders } from '@pulseboard/contracts';
import { readTopic, testKafka, testTopicPrefix, uniqueName, waitFor } from '@pulseboard/test-kit';
import { runBatchConsumer, type RunningConsumer } from './batch-consumer.ts';
import { BatchingProducer } from './batching-producer.ts';
import { ensureTopics } from './client.ts';
import { OK, type Outcome } from './outcome.ts';

const logger = pino({ level: 'silent' });
const decode = (value: Buffer | null) => (value === null || value.length === 0 ? { ok: false as const, code: 'empty_value', message: 'no value' } : { ok: true as const, value: value.toString() });

describe('batch consumer: outcomes applied by one wrapper', () => {
  const kafka = testKafka();
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  producer.start();
  const running: RunningConsumer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
    await producer.stop();
  });

  it('retries retryable failures, dead-letters only the message a bug comes from (with why and where), counts drops', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    const dlq = `${topic}.dlq`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }, { topic: dlq, numPartitions: 1 }]);
    await producer.sendMany(topic, ['a', 'skip', 'bug', 'b', ''].map((value) => ({ key: 'k', value })));
    let transient = 2;
    const applied: string[] = [];
    const dropped: string[] = [];
    const consumer = await runBatchConsumer<string>({
      kafka,
      logger,
      groupId: uniqueName('g'),
      topic,
      deadLetterTopic: dlq,
      deadLetterHeaders,
      producer,
      decode,
      maxBackoffMs: 100,
      onDrop: (m, reason) => dropped.push(`${m.value}:${reason}`),
      handle: async (messages) => {
        if (transient-- > 0) throw Object.assign(new Error('briefly away'), { retryable: true });
        return messages.map((m): Outcome => {
          if (m.value === 'bug') throw new Error('a bug this message triggers');
          if (m.value === 'skip') return { kind: 'drop', reason: 'not for us' };
          applied.push(m.value);
          return OK;
        });
      },
    });
    running.push(consumer);
    await waitFor(async () => (await readTopic(dlq)).length === 2, { timeoutMs: 20000, what: 'two dead letters' });
    expect([...new Set(applied)].sort()).toEqual(['a', 'b']);
    expect(dropped[0]).toBe('skip:not for us');
    const letters = await readTopic(dlq);
    const byOffset = letters.map((l) => [l.value, l.headers['pb-dlq-reason'], l.headers['pb-dlq-offset'], l.headers['pb-dlq-topic']]).sort((x, y) => Number(x[2]) - Number(y[2]));
    expect(byOffset).toEqual([
      ['bug', 'handler_failed', '2', topic],
      ['', 'empty_value', '4', topic],
    ]);
    expect(letters.find((l) => l.value === 'bug')!.headers['pb-dlq-message']).toBe('a bug this message triggers');
  });

  it('stop() ends a backoff at once instead of waiting it out', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    await producer.send(topic, { key: 'k', value: 'x' });
    let tries = 0;
    const consumer = await runBatchConsumer<string>({
      kafka,
      logger,
      groupId: uniqueName('g'),
      topic,
      deadLetterTopic: `${topic}.dlq`,
      deadLetterHeaders,
      producer,
      decode,
      maxBackoffMs: 60_000,
      handle: async () => {
        tries++;
        throw Object.assign(new Error('down for long'), { retryable: true });
      },
    });
    // Six tries take about 6 s; the seventh waits 12.8 s.
    await waitFor(() => tries >= 6, { timeoutMs: 60000, what: 'the backoff to grow' });
    const started = Date.now();
    await consumer.stop();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
