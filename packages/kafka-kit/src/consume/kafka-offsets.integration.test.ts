import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deadLetterHeaders } from '@pulseboard/contracts';
import { readTopic, testKafka, testTopicPrefix, uniqueName, waitFor } from '@pulseboard/test-kit';
import { BatchingProducer } from '../batching-producer.ts';
import { ensureTopics } from '../client.ts';
import { OK, type Outcome } from '../outcome.ts';
import { consume, type Consuming, type KafkaConsumeOptions } from './consume.ts';

/** What a test varies: the consumer's options (its group unless given: one of its own). */
type Overrides = Partial<Omit<KafkaConsumeOptions<string>, 'group'>> & Pick<KafkaConsumeOptions<string>, 'handler'> & { groupId?: string };

const logger = pino({ level: 'silent' });
const decode = (value: Buffer | null) =>
  value === null || value.length === 0 ? { ok: false as const, code: 'empty_value', message: 'no value' } : { ok: true as const, value: value.toString() };

describe('batch consumer: outcomes applied by one wrapper', () => {
  const kafka = testKafka();
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  producer.start();
  const running: Consuming[] = [];
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
    await producer.stop();
  });

  /** A consumer of `topic` in a group of its own (unless given), dead-lettering to `${topic}.dlq`; stopped after the tests. */
  const consumeFrom = async (topic: string, { groupId, ...options }: Overrides) => {
    const consumer = await consume<string>({
      kafka,
      logger,
      group: groupId ?? uniqueName('g'),
      topic,
      offsets: 'kafka',
      deadLetter: { producer, topic: `${topic}.dlq`, headers: deadLetterHeaders },
      decode,
      ...options,
    });
    running.push(consumer);
    return consumer;
  };

  it('retries retryable failures, dead-letters only the message a bug comes from (with why and where), counts drops', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    const dlq = `${topic}.dlq`;
    await ensureTopics(kafka, [
      { topic, numPartitions: 1 },
      { topic: dlq, numPartitions: 1 },
    ]);
    await producer.sendMany(
      topic,
      ['a', 'skip', 'bug', 'b', ''].map((value) => ({ key: 'k', value })),
    );
    let transient = 2;
    const applied: string[] = [];
    const dropped: string[] = [];
    await consumeFrom(topic, {
      maxBackoffMs: 100,
      onDrop: (m, reason) => dropped.push(`${m.raw.value?.toString()}:${reason}`),
      handler: async (messages) => {
        if (transient-- > 0) throw Object.assign(new Error('briefly away'), { retryable: true });
        return messages.map((m): Outcome => {
          if (m.value === 'bug') throw new Error('a bug this message triggers');
          if (m.value === 'skip') return { kind: 'drop', reason: 'not for us' };
          applied.push(m.value);
          return OK;
        });
      },
    });
    await waitFor(async () => (await readTopic(dlq)).length === 2, { timeoutMs: 20000, what: 'two dead letters' });
    expect([...new Set(applied)].sort()).toEqual(['a', 'b']);
    expect(dropped[0]).toBe('skip:not for us');
    const letters = await readTopic(dlq);
    const byOffset = letters
      .map((l) => [l.value, l.headers['pb-dlq-reason'], l.headers['pb-dlq-offset'], l.headers['pb-dlq-topic']])
      .sort((x, y) => Number(x[2]) - Number(y[2]));
    expect(byOffset).toEqual([
      ['bug', 'handler_failed', '2', topic],
      ['', 'empty_value', '4', topic],
    ]);
    expect(letters.find((l) => l.value === 'bug')!.headers['pb-dlq-message']).toBe('a bug this message triggers');
  });

  it('a handler that gives the wrong number of outcomes is a bug: the messages are dead-lettered, not skipped or applied twice', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    const dlq = `${topic}.dlq`;
    await ensureTopics(kafka, [
      { topic, numPartitions: 1 },
      { topic: dlq, numPartitions: 1 },
    ]);
    await producer.sendMany(
      topic,
      ['a', 'b', 'c'].map((value) => ({ key: 'k', value })),
    );
    // One outcome too few, whatever it is given.
    await consumeFrom(topic, { handler: async (messages) => messages.slice(1).map(() => OK) });
    await waitFor(async () => (await readTopic(dlq)).length === 3, { timeoutMs: 20000, what: 'three dead letters' });
    const letters = await readTopic(dlq);
    expect(letters.map((l) => [l.value, l.headers['pb-dlq-reason'], l.headers['pb-dlq-message']]).sort()).toEqual(
      ['a', 'b', 'c'].map((v) => [v, 'handler_failed', 'handler gave 0 outcomes for 1 messages']),
    );
  });

  it('a second instance in the group takes partitions over on rebalance; every message is handled, and the group commits past all of them', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    const groupId = uniqueName('g');
    await ensureTopics(kafka, [{ topic, numPartitions: 4 }]);
    const handledBy = [new Set<string>(), new Set<string>()];
    const start = (i: number) =>
      consumeFrom(topic, {
        groupId,
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 500,
        handler: async (messages) => messages.map((m) => (handledBy[i]!.add(m.value), OK)),
      });
    await start(0);
    const values = (from: number) => Array.from({ length: 200 }, (_, i) => `m${from + i}`);
    await producer.sendMany(
      topic,
      values(0).map((value) => ({ key: value, value })),
    );
    await waitFor(() => handledBy[0]!.size === 200, { timeoutMs: 30000, what: 'the first instance to handle the first 200' });
    await start(1);
    const admin = kafka.admin();
    await admin.connect();
    try {
      // The second one is in once the group is stable with two members.
      await waitFor(
        async () => {
          const { groups } = await admin.describeGroups([groupId]);
          return groups[0]?.members.length === 2 && groups[0].state === 'Stable';
        },
        { timeoutMs: 30000, what: 'the group to rebalance to two members' },
      );
      await producer.sendMany(
        topic,
        values(200).map((value) => ({ key: value, value })),
      );
      await waitFor(() => new Set([...handledBy[0]!, ...handledBy[1]!]).size === 400, { timeoutMs: 30000, what: 'all 400 handled' });
      expect(handledBy[1]!.size).toBeGreaterThan(0);
      await waitFor(
        async () => {
          const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
          const ends = await admin.fetchTopicOffsets(topic);
          return ends.every((end) => committed!.partitions.find((p) => p.partition === end.partition)?.offset === end.high);
        },
        { timeoutMs: 20000, what: 'the group to commit every partition to its end' },
      );
    } finally {
      await admin.disconnect();
    }
  });

  it('commits offsets by time, not per batch, and commits what was handled when it stops', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    const groupId = uniqueName('g');
    await ensureTopics(kafka, [{ topic, numPartitions: 2 }]);
    const handled = new Set<string>();
    const consumer = await consumeFrom(topic, {
      groupId,
      commitIntervalMs: 60_000,
      handler: async (messages) => messages.map((m) => (handled.add(m.value), OK)),
    });
    let commits = 0;
    consumer.consumer.on(consumer.consumer.events.REQUEST, ({ payload }) => void (payload.apiName === 'OffsetCommit' && commits++));
    // One message at a time, each its own fetch and batch: kafkajs' autoCommit would commit after every one.
    for (let i = 0; i < 12; i++) {
      await producer.send(topic, { key: `k${i}`, value: `m${i}` });
      await waitFor(() => handled.has(`m${i}`), { timeoutMs: 10000, what: `m${i} handled` });
    }
    expect(commits).toBe(0);
    await consumer.stop();
    expect(commits).toBe(1);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      expect(ends.map((end) => committed!.partitions.find((p) => p.partition === end.partition)?.offset)).toEqual(ends.map((end) => end.high));
    } finally {
      await admin.disconnect();
    }
  });

  it('stop() ends a backoff at once instead of waiting it out', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('batch')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    await producer.send(topic, { key: 'k', value: 'x' });
    let tries = 0;
    const consumer = await consumeFrom(topic, {
      maxBackoffMs: 60_000,
      handler: async () => {
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
