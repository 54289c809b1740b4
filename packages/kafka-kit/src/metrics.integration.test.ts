import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { Registry } from 'prom-client';
import { testKafka, testTopicPrefix, uniqueName } from '@pulseboard/test-kit';
import { ensureTopics } from './client.ts';
import { consume } from './consume/consume.ts';
import { eachMessage } from './consume/middleware.ts';
import { instrumentKafka } from './metrics.ts';

const logger = pino({ level: 'silent' });
const decode = (value: Buffer | null) => ({ ok: true as const, value });

describe('readiness of the consumers a service makes (issue 41)', () => {
  it('a transient consumer never counts; a stopped one leaves the membership instead of making the service unready for good', async () => {
    const kafka = testKafka();
    const signals = instrumentKafka(kafka, new Registry(), { transient: ['test-ready-tail-'] });
    const topic = `${testTopicPrefix()}${uniqueName('ready')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    expect(signals.joined()).toBe(false);

    const required = await consume({
      kafka,
      logger,
      topic,
      group: { fanOut: 'test-ready-feed' },
      offsets: 'none',
      decode,
      handler: eachMessage(() => undefined),
    });
    await required.whenReady();
    expect(signals.joined()).toBe(true);

    // A tail comes and goes (twice): readiness is the required consumer's alone, before, during and after.
    for (const round of [1, 2]) {
      const tail = await consume({
        kafka,
        logger,
        topic,
        group: { fanOut: 'test-ready-tail' },
        offsets: 'none',
        decode,
        handler: eachMessage(() => undefined),
      });
      await tail.whenReady();
      expect(signals.joined(), `round ${round}, tail running`).toBe(true);
      await tail.stop();
      expect(signals.joined(), `round ${round}, tail stopped`).toBe(true);
    }

    // A second required consumer is waited for until it joins; stopped, it leaves.
    const second = await consume({
      kafka,
      logger,
      topic,
      group: { fanOut: 'test-ready-control' },
      offsets: 'none',
      decode,
      handler: eachMessage(() => undefined),
    });
    await second.whenReady();
    expect(signals.joined()).toBe(true);
    await second.stop();
    expect(signals.joined()).toBe(true);

    // The last required consumer gone: nothing is in a group, not ready.
    await required.stop();
    expect(signals.joined()).toBe(false);
    await signals.stop();
  }, 60_000);
});
