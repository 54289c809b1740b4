import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * patches/kafkajs@2.2.4.patch replaces kafkajs' record encoder with one that
 * writes each record in a single pass, its CRC-32C with a slicing-by-8 one, and
 * lets the generic encoder grow without zero-filling and copy arrays of encoders
 * in one go. All must give exactly what the originals gave: compared here on random
 * records (keys, values, headers, multi-byte text, null keys and values,
 * negative deltas) and random buffers.
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
const recordBatchCrc = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (buffer: Buffer) => number;
interface Encoder {
  buffer: Buffer;
  writeInt32(value: number): Encoder;
  writeString(value: string): Encoder;
  writeBytes(value: Buffer): Encoder;
  writeEncoderArray(value: Encoder[]): Encoder;
}
const Encoder = require('kafkajs/src/protocol/encoder.js') as new (initialSize?: number) => Encoder;

let seed = 7;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const text = (max: number) => Array.from({ length: random(max) }, () => String.fromCodePoint(random(3) === 0 ? 0x4e00 + random(500) : 32 + random(90))).join('');

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
    // On the platforms @node-rs/crc32 ships binaries for (this one included) the native one is used.
    expect(crc32C.native).toBe(true);
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
    const grouped = group({ topic: 't', partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }], messages, partitioner: ({ message }: { message: { key: string } }) => Number(message.key.slice(1)) % 3 });
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
          ? (record({ offsetDelta: random(100), timestampDelta: random(1000), key: text(20), value: text(3000), headers: { h: text(30) } }) as unknown as Encoder)
          : new Encoder(random(64) + 1).writeInt32(random(1 << 30)).writeString(text(200)).writeBytes(Buffer.from(text(500))),
      );
      const expected = Buffer.concat([Buffer.from([0, 0, 0, 7]), ...parts.map((p) => p.buffer), Buffer.from([0, 0, 0, 9])]);
      const encoder = new Encoder(1).writeInt32(7).writeEncoderArray(parts).writeInt32(9);
      expect(encoder.buffer.equals(expected)).toBe(true);
    }
  });
});
