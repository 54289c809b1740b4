import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Kafka } from 'kafkajs';
import { BatchingProducer, produceFailure } from './batching-producer.ts';

/** A kafkajs refusal as the protocol layer throws it: a type and `retriable`. */
const brokerError = (type: string, retriable: boolean) => Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type, retriable });

/** Fake kafkajs producers: the nth one created answers its produce requests with `answers[n]`. */
function fakeKafka(answers: ((call: number) => Error | undefined)[]) {
  const created: { sends: number }[] = [];
  const kafka = {
    producer: () => {
      const index = created.length;
      const record = { sends: 0 };
      created.push(record);
      const handlers = new Map<string, () => void>();
      return {
        events: { CONNECT: 'connect', DISCONNECT: 'disconnect' },
        on: (name: string, handler: () => void) => void handlers.set(name, handler),
        connect: async () => handlers.get('connect')?.(),
        disconnect: async () => handlers.get('disconnect')?.(),
        sendBatch: async () => {
          const error = answers[index]?.(record.sends++);
          if (error !== undefined) throw error;
          return [];
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, created };
}

const message = { key: 'p', value: '{}' };

describe('BatchingProducer when the broker lost the producer state', () => {
  it('answers retryable kafka_unavailable and sends the next request from a producer with a new id', async () => {
    // The first producer is refused for good, as after a broker restart that lost its state.
    const { kafka, created } = fakeKafka([() => brokerError('OUT_OF_ORDER_SEQUENCE_NUMBER', false), () => undefined]);
    const producer = new BatchingProducer({ kafka, logger: pino({ level: 'silent' }), lingerMs: 0, deliveryTimeoutMs: 2000 });
    producer.start();

    const refused = await producer.send('events', message).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'kafka_unavailable', status: 503, retryable: true });
    // The retry goes out on a new producer (kafkajs keeps an id across disconnect and connect).
    await expect(producer.send('events', message)).resolves.toBeUndefined();
    expect(created.map((p) => p.sends)).toEqual([1, 1]);
    await producer.stop();
  });

  it('tells callers to retry only when the batch was not written: producer-state refusals and outages, not a duplicate or an oversized batch', () => {
    for (const type of ['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']) {
      expect(produceFailure(brokerError(type, false)), type).toMatchObject({ code: 'kafka_unavailable', retryable: true });
    }
    // Written already: not an outage to retry through.
    expect(produceFailure(brokerError('DUPLICATE_SEQUENCE_NUMBER', false))).toMatchObject({ code: 'kafka_rejected', retryable: false });
    expect(produceFailure(brokerError('MESSAGE_TOO_LARGE', false))).toMatchObject({ code: 'kafka_message_too_large' });
    expect(produceFailure(brokerError('NOT_LEADER_FOR_PARTITION', true))).toMatchObject({ code: 'kafka_unavailable' });
  });
});

describe('BatchingProducer lingering only while callers come close together (lingerOnlyWhenBusy)', () => {
  const LINGER_MS = 500;
  function setup() {
    let clock = 0;
    const requests: number[] = [];
    const { kafka } = fakeKafka([() => undefined]);
    const producer = new BatchingProducer({
      kafka,
      logger: pino({ level: 'silent' }),
      lingerMs: LINGER_MS,
      lingerOnlyWhenBusy: true,
      now: () => clock,
      onProduceRequest: (messages) => requests.push(messages),
    });
    producer.start();
    return { producer, requests, advance: (ms: number) => void (clock += ms) };
  }
  const twoTurns = async () => {
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  };

  it('busy (callers 1 ms apart): a caller waits for company, and the next one shares its produce request', async () => {
    const { producer, requests, advance } = setup();
    const burst = Array.from({ length: 5 }, () => {
      advance(1);
      return producer.send('events', message);
    });
    await Promise.all(burst);
    advance(1);
    const first = producer.send('events', message);
    // Two turns later the first is still waiting out the linger; the second joins it.
    await twoTurns();
    advance(1);
    const second = producer.send('events', message);
    await Promise.all([first, second]);
    expect(requests).toEqual([5, 2]);
    await producer.stop();
  });

  it('a trickle (callers seconds apart): each leaves on the next turn, alone, without waiting for company that will not come', async () => {
    const { producer, requests, advance } = setup();
    for (let i = 0; i < 5; i++) {
      advance(2000);
      await producer.send('events', message);
    }
    advance(2000);
    const first = producer.send('events', message);
    // A fixed linger would still hold the first here, and the second would join it.
    await twoTurns();
    advance(2000);
    const second = producer.send('events', message);
    await Promise.all([first, second]);
    expect(requests).toEqual([1, 1, 1, 1, 1, 1, 1]);
    await producer.stop();
  });
});
