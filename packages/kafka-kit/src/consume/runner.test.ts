import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { KafkaMessage } from 'kafkajs';
import { createBatchRunner, type Attempt } from './runner.ts';
import type { ConsumedMessage } from './types.ts';
import type { BatchingProducer } from '../batching-producer.ts';
import { OK } from '../outcome.ts';

const logger = pino({ level: 'silent' });

function message(offset: number, value: string): ConsumedMessage<string> {
  const raw = { offset: String(offset), key: Buffer.from('k'), value: Buffer.from(value), headers: {} } as unknown as KafkaMessage;
  return { topic: 't', partition: 0, offset: String(offset), key: raw.key, raw, value };
}

/** A commit strategy that records what each successful attempt made durable: its messages and the offset it moved to. */
function recording(fail: (messages: ConsumedMessage<string>[]) => Error | undefined) {
  const durable: string[] = [];
  let attempts = 0;
  const attempt: Attempt<string> = async (messages, nextOffset, settle) => {
    attempts++;
    const error = fail(messages);
    if (error !== undefined) throw error;
    const outcomes = messages.map((m) =>
      m.value === 'refuse'
        ? { kind: 'dead_letter' as const, code: 'refused', message: 'no' }
        : m.value === 'skip'
          ? { kind: 'drop' as const, reason: 'not ours' }
          : OK,
    );
    await settle(outcomes);
    durable.push(`${messages.map((m) => m.value).join('+') || '-'}@${nextOffset}`);
    return outcomes;
  };
  return { attempt, durable, attempts: () => attempts };
}

function parking() {
  const parked: string[] = [];
  const producer = { send: async (_topic: string, m: { value: Buffer }) => void parked.push(m.value.toString()) } as unknown as BatchingProducer;
  return { parked, target: { producer, topic: 'dlq', headers: () => ({}) } };
}

const batch = (messages: ConsumedMessage<string>[]) => ({ partition: 0, messages, letters: [], nextOffset: BigInt(messages.length), live: () => true });

describe('batch runner', () => {
  it('retries a retryable failure, then makes the whole batch durable at once', async () => {
    let failures = 2;
    const strategy = recording(() => (failures-- > 0 ? Object.assign(new Error('away'), { retryable: true }) : undefined));
    const run = createBatchRunner({ logger, topic: 't', groupId: 'g', attempt: strategy.attempt, maxBackoffMs: 1 });
    expect(await run(batch([message(0, 'a'), message(1, 'b')]))).toBe(true);
    expect(strategy.durable).toEqual(['a+b@2']);
    expect(strategy.attempts()).toBe(3);
  });

  it('narrows a bug to its message: each alone, the bad one parked, then the offset moved past the tail', async () => {
    const strategy = recording((messages) => (messages.some((m) => m.value === 'poison') ? new Error('bug') : undefined));
    const { parked, target } = parking();
    const dropped: string[] = [];
    const run = createBatchRunner({
      logger,
      topic: 't',
      groupId: 'g',
      attempt: strategy.attempt,
      deadLetter: target,
      onDrop: (m, reason) => dropped.push(`${m.offset}:${reason}`),
    });
    expect(await run(batch([message(0, 'a'), message(1, 'poison'), message(2, 'refuse'), message(3, 'skip')]))).toBe(true);
    expect(strategy.durable).toEqual(['a@1', '-@2', 'refuse@3', 'skip@4', '-@4']);
    expect(parked).toEqual(['poison', 'refuse']);
    expect(dropped).toEqual(['3:not ours']);
  });

  it('without a dead-letter target, drops what it would have parked (reported once durable)', async () => {
    const strategy = recording((messages) => (messages.some((m) => m.value === 'poison') ? new Error('bug') : undefined));
    const dropped: string[] = [];
    const run = createBatchRunner({
      logger,
      topic: 't',
      groupId: 'g',
      attempt: strategy.attempt,
      onDrop: (m, reason) => dropped.push(`${m.offset}:${reason.split(':')[0]}`),
    });
    expect(await run(batch([message(0, 'poison'), message(1, 'refuse')]))).toBe(true);
    expect(dropped).toEqual(['0:handler_failed', '1:refused']);
  });

  it('rethrows a fatal error, and gives up once the batch is no longer live', async () => {
    class Fenced extends Error {}
    const fenced = createBatchRunner({ logger, topic: 't', groupId: 'g', attempt: recording(() => new Fenced()).attempt, isFatal: (e) => e instanceof Fenced });
    await expect(fenced(batch([message(0, 'a')]))).rejects.toBeInstanceOf(Fenced);
    let live = true;
    const strategy = recording(() => ((live = false), Object.assign(new Error('away'), { retryable: true })));
    const run = createBatchRunner({ logger, topic: 't', groupId: 'g', attempt: strategy.attempt, maxBackoffMs: 1 });
    expect(await run({ ...batch([message(0, 'a')]), live: () => live })).toBe(false);
    expect(strategy.durable).toEqual([]);
  });
});
