import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * patches/kafkajs@2.2.4.patch replaces kafkajs' record encoder with one that
 * writes each record in a single pass, its CRC-32C with a slicing-by-8 one, and
 * lets the generic encoder grow without zero-filling and copy arrays of encoders
 * in one go. All must give exactly what the originals gave: compared here on random
 * records (keys, values, headers, multi-byte text, null keys and values,
 * negative deltas) and random buffers. Produce requests are written in one pass
 * into one buffer; compared with the original, Encoder-per-level encoding on
 * random topics, partitions, messages and producer state.
 */
type RecordEncoder = ((record: object) => { buffer: Buffer }) & { genericRecord?: (record: object) => { buffer: Buffer } };
const require = createRequire(import.meta.url);
const record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as RecordEncoder;
const group = require('kafkajs/src/producer/groupMessagesPerPartition.js') as (args: object) => Record<string, unknown[]>;
const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js') as ((buffer: Buffer) => number) & {
  native?: boolean;
  javascript?: (buffer: Buffer) => number;
  bytewise?: (buffer: Buffer) => number;
};
// What RecordBatch calls (kafkajs' index module, which the patch makes the same function).
/** Whether @node-rs/crc32 loads here, resolved from kafkajs as the patch resolves it. */
function nativeCrcLoads(): boolean {
  try {
    createRequire(require.resolve('kafkajs'))('@node-rs/crc32');
    return true;
  } catch {
    return false;
  }
}
const recordBatchCrc = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (buffer: Buffer) => number;
interface Encoder {
  buffer: Buffer;
  writeInt32(value: number): Encoder;
  writeString(value: string): Encoder;
  writeBytes(value: Buffer): Encoder;
  writeEncoderArray(value: Encoder[]): Encoder;
}
const Encoder = require('kafkajs/src/protocol/encoder.js') as new (initialSize?: number) => Encoder;
type ProduceEncoder = (args: object) => Promise<{ buffer: Buffer }>;
const produceV3 = require('kafkajs/src/protocol/requests/produce/v3/request.js') as ((args: object) => { encode(): Promise<{ buffer: Buffer }> }) & {
  encodeGeneric?: ProduceEncoder;
  encodeUncompressed?: ProduceEncoder;
};
const produceV7 = require('kafkajs/src/protocol/requests/produce/v7/request.js') as (args: object) => {
  apiVersion: number;
  encode(): Promise<{ buffer: Buffer }>;
};
type Framing = ((args: object) => Promise<{ buffer: Buffer }>) & { generic?: (args: object) => Promise<{ buffer: Buffer }> };
const frameRequest = require('kafkajs/src/protocol/request.js') as Framing;
const Long = require('kafkajs/src/utils/long.js') as { fromValue(value: number | string): unknown };

let seed = 7;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const text = (max: number) =>
  Array.from({ length: random(max) }, () => String.fromCodePoint(random(3) === 0 ? 0x4e00 + random(500) : 32 + random(90))).join('');

describe('the kafkajs record encoder patch', () => {
  it('is applied (the original encoder is kept beside it)', () => {
    expect(typeof record.genericRecord).toBe('function');
  });

  it('writes byte for byte what the original encoder writes', () => {
    for (let i = 0; i < 5000; i++) {
      const headers: Record<string, string | Buffer | (string | Buffer)[]> = {};
      for (let h = 0; h < random(5); h++) headers[`h-${text(12)}`] = random(2) === 0 ? text(200) : Buffer.from(text(200));
      if (random(5) === 0) headers.multi = [text(20), Buffer.from(text(20))];
      const input = {
        offsetDelta: random(5000),
        timestampDelta: random(4) === 0 ? -random(1_000_000) : random(1_000_000),
        key: [null, undefined, text(40), Buffer.from(text(40))][random(4)],
        value: [null, text(2000), Buffer.from(text(300).repeat(random(20)))][random(3)],
        headers,
      };
      expect(record(input).buffer.equals(record.genericRecord!(input).buffer)).toBe(true);
    }
  });

  it('takes the original path for shapes it does not handle, with the same result', () => {
    const odd = { offsetDelta: 1, timestampDelta: 2 ** 40, key: 'k', value: 'v', headers: { n: 'x' } };
    expect(record(odd).buffer.equals(record.genericRecord!(odd).buffer)).toBe(true);
  });

  it('computes the same CRC-32C as the original, byte-at-a-time version, natively and in JavaScript', () => {
    // The native one is used wherever @node-rs/crc32 has a binary that loads (from kafkajs, as the patch loads it), the JavaScript one elsewhere.
    expect(crc32C.native).toBe(nativeCrcLoads());
    expect(recordBatchCrc).toBe(crc32C);
    for (const crc of [crc32C, crc32C.javascript!, recordBatchCrc]) expect(crc(Buffer.from('123456789'))).toBe(0xe3069283); // the standard check value
    for (let i = 0; i < 2000; i++) {
      const buffer = Buffer.from(Array.from({ length: random(i < 1900 ? 400 : 30_000) }, () => random(256)));
      const expected = crc32C.bytewise!(buffer);
      expect(crc32C(buffer)).toBe(expected);
      expect(crc32C.javascript!(buffer)).toBe(expected);
    }
  });

  it('groups messages per partition in order (linear, no array copy per message)', () => {
    const messages = Array.from({ length: 3000 }, (_, i) => ({ key: `k${i % 7}`, value: String(i) }));
    const grouped = group({
      topic: 't',
      partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }],
      messages,
      partitioner: ({ message }: { message: { key: string } }) => Number(message.key.slice(1)) % 3,
    });
    expect(Object.keys(grouped).sort()).toEqual(['0', '1', '2']);
    for (const [partition, list] of Object.entries(grouped)) {
      const values = (list as { key: string; value: string }[]).map((m) => Number(m.value));
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(values.every((v) => (v % 7) % 3 === Number(partition))).toBe(true);
    }
    expect(Object.values(grouped).reduce((n, l) => n + l.length, 0)).toBe(3000);
  });

  it('encoder: growing without zero-fill and writing an array of encoders at once keep every byte', () => {
    for (let i = 0; i < 300; i++) {
      // Records of the patched encoder and plain encoders of any size, as a record batch holds them.
      const parts: Encoder[] = Array.from({ length: random(60) }, () =>
        random(2) === 0
          ? (record({
              offsetDelta: random(100),
              timestampDelta: random(1000),
              key: text(20),
              value: text(3000),
              headers: { h: text(30) },
            }) as unknown as Encoder)
          : new Encoder(random(64) + 1)
              .writeInt32(random(1 << 30))
              .writeString(text(200))
              .writeBytes(Buffer.from(text(500))),
      );
      const expected = Buffer.concat([Buffer.from([0, 0, 0, 7]), ...parts.map((p) => p.buffer), Buffer.from([0, 0, 0, 9])]);
      const encoder = new Encoder(1).writeInt32(7).writeEncoderArray(parts).writeInt32(9);
      expect(encoder.buffer.equals(expected)).toBe(true);
    }
  });

  describe('produce requests', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    const message = (withTimestamp: boolean) => ({
      key: random(6) === 0 ? null : random(2) === 0 ? text(20) : Buffer.from(text(20)),
      value: random(8) === 0 ? null : random(2) === 0 ? text(400) : Buffer.from(text(400)),
      headers:
        random(3) === 0 ? undefined : { 'content-type': Buffer.from('application/json'), 'pb-event-id': String(random(1e9)), [`x-${text(5)}`]: text(30) },
      ...(withTimestamp ? { timestamp: random(4) === 0 ? String(1_700_000_000_000 + random(1e6)) : 1_700_000_000_000 + random(1e6) } : {}),
    });
    const produceArgs = () => {
      const withTimestamps = random(2) === 0;
      return {
        acks: [-1, 0, 1][random(3)],
        timeout: random(60_000),
        transactionalId: random(4) === 0 ? `tx-${text(10)}` : null,
        producerId: random(2) === 0 ? Long.fromValue(random(1e9)) : Long.fromValue(-1),
        producerEpoch: random(100),
        compression: 0,
        topicData: Array.from({ length: 1 + random(3) }, () => ({
          topic: `topic-${text(15)}`,
          partitions: Array.from({ length: 1 + random(4) }, () => ({
            partition: random(64),
            ...(random(3) === 0 ? {} : { firstSequence: random(1e9) }),
            messages: Array.from({ length: 1 + random(60) }, () => message(withTimestamps)),
          })),
        })),
      };
    };

    it('encodes an uncompressed produce request byte for byte as the original did', async () => {
      // Messages without a timestamp take Date.now() at encoding time: one clock for both encodings.
      vi.spyOn(Date, 'now').mockReturnValue(1_700_000_123_456);
      for (let i = 0; i < 400; i++) {
        const args = produceArgs();
        const patched = (await produceV3.encodeUncompressed!(args)).buffer;
        expect(patched.equals((await produceV3.encodeGeneric!(args)).buffer), `request ${i}`).toBe(true);
      }
    });

    it('is the encoding produce v3 to v7 requests use when uncompressed, and frames it as the original framing did', async () => {
      vi.spyOn(Date, 'now').mockReturnValue(1_700_000_123_456);
      for (let i = 0; i < 50; i++) {
        const args = produceArgs();
        const request = produceV7(args);
        expect(request.apiVersion).toBe(7);
        expect((await request.encode()).buffer.equals((await produceV3.encodeGeneric!(args)).buffer)).toBe(true);
        const framing = { correlationId: random(1e9), clientId: random(5) === 0 ? `client-${text(8)}` : 'pulseboard', request };
        expect((await frameRequest(framing)).buffer.equals((await frameRequest.generic!(framing)).buffer)).toBe(true);
      }
    });

    it('keeps the original encoding for compressed requests', async () => {
      vi.spyOn(Date, 'now').mockReturnValue(1_700_000_123_456);
      const args = { ...produceArgs(), compression: 1 }; // gzip
      expect((await produceV3(args).encode()).buffer.equals((await produceV3.encodeGeneric!(args)).buffer)).toBe(true);
    });
  });

  describe('request queue', () => {
    // kafkajs issues 1556/1704: after any response the queue re-armed a pending-requests check every
    // 1 ms for as long as the connection lived, with nothing pending: a busy timer on every idle
    // connection. Patched, it arms one only while a request waits; waiting requests still go out.
    interface Queue {
      push(request: { entry: object; expectResponse: boolean; sendRequest: () => void }): void;
      fulfillRequest(response: { correlationId: number; payload: Buffer | null; size: number }): void;
      maybeThrottle(ms: number | null): void;
    }
    const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (options: object) => Queue;
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const newQueue = (maxInFlightRequests: number | null) =>
      new RequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:9092', logger: quiet });
    const sent: number[] = [];
    const request = (correlationId: number) => ({
      entry: { correlationId, apiKey: 1, apiName: 'Fetch', apiVersion: 11, resolve: () => undefined, reject: () => undefined },
      expectResponse: true,
      sendRequest: () => void sent.push(correlationId),
    });
    afterEach(() => {
      vi.useRealTimers();
      sent.length = 0;
    });

    it('leaves no timer behind once nothing is pending', () => {
      vi.useFakeTimers();
      const queue = newQueue(null);
      queue.push(request(1));
      queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
      expect(sent).toEqual([1]);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('still sends a request that waited for an in-flight slot, and then stops checking', () => {
      vi.useFakeTimers();
      const queue = newQueue(1);
      queue.push(request(1));
      queue.push(request(2));
      expect(sent).toEqual([1]);
      queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
      expect(sent).toEqual([1, 2]);
      vi.advanceTimersByTime(100);
      queue.fulfillRequest({ correlationId: 2, payload: null, size: 0 });
      vi.advanceTimersByTime(100);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('still sends a request held back by client-side throttling when the throttle ends', () => {
      vi.useFakeTimers();
      const queue = newQueue(null);
      queue.maybeThrottle(50);
      queue.push(request(3));
      expect(sent).toEqual([]);
      vi.advanceTimersByTime(60);
      expect(sent).toEqual([3]);
      queue.fulfillRequest({ correlationId: 3, payload: null, size: 0 });
      vi.advanceTimersByTime(100);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
