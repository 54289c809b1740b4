import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import { restartAfterCrashes } from './crash-restart.ts';

const EVENTS = { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' } as const;

/** kafkajs's consumer as far as the restart sees it: its events, connect and run. */
function consumerThatFails(connectFailures: number) {
  const emitter = new EventEmitter();
  const calls: string[] = [];
  let failures = connectFailures;
  const consumer = {
    events: EVENTS as unknown as Consumer['events'],
    on: ((event: string, listener: (e: unknown) => void) => emitter.on(event, listener)) as unknown as Consumer['on'],
    connect: async () => {
      calls.push('connect');
      if (failures-- > 0) throw new Error('ECONNREFUSED');
    },
    run: async (config?: ConsumerRunConfig) => {
      calls.push(config === runConfig ? 'run' : 'run with another config');
    },
  };
  const crash = (restart: boolean) => emitter.emit(EVENTS.CRASH, { payload: { restart, error: new Error('Failed to find group coordinator') } });
  const join = () => emitter.emit(EVENTS.GROUP_JOIN, { payload: {} });
  return { consumer, calls, crash, join };
}
const runConfig: ConsumerRunConfig = { eachBatch: async () => undefined };
const logger = pino({ level: 'silent' });

describe('restarting a consumer kafkajs gave up on', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('connects and runs it again with the same handlers after a crash kafkajs does not restart', async () => {
    const { consumer, calls, crash } = consumerThatFails(0);
    restartAfterCrashes(consumer, runConfig, logger, { topic: 't', groupId: 'g', stopping: () => false });
    crash(false);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['connect', 'run']);
  });

  it('leaves crashes kafkajs restarts itself alone, and does nothing once the consumer is stopping', async () => {
    let stopping = false;
    const { consumer, calls, crash } = consumerThatFails(0);
    const restarts = restartAfterCrashes(consumer, runConfig, logger, { topic: 't', groupId: 'g', stopping: () => stopping });
    crash(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual([]);
    crash(false);
    stopping = true;
    restarts.cancel();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual([]);
  });

  it('keeps trying with a capped, doubling backoff while the broker is away, one attempt at a time', async () => {
    const { consumer, calls, crash, join } = consumerThatFails(3);
    restartAfterCrashes(consumer, runConfig, logger, { topic: 't', groupId: 'g', stopping: () => false });
    crash(false);
    crash(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['connect']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toEqual(['connect', 'connect']);
    await vi.advanceTimersByTimeAsync(4000);
    expect(calls).toEqual(['connect', 'connect', 'connect']);
    await vi.advanceTimersByTimeAsync(8000);
    expect(calls).toEqual(['connect', 'connect', 'connect', 'connect', 'run']);
    // Joined again: the next crash starts from the first backoff.
    join();
    crash(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.slice(5)).toEqual(['connect', 'run']);
  });
});
