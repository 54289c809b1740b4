import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { JavaCompatiblePartitioner, murmur2 } from './partitioner.ts';

// kafkajs' own (Long-based) murmur2 and default partitioner: ours must agree on every key.
const require = createRequire(import.meta.url);
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2.js') as (key: Buffer) => number;
const { Partitioners } = require('kafkajs') as typeof import('kafkajs');

const partitionMetadata = (n: number) => Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 1, partitionErrorCode: 0, replicas: [1], isr: [1] }));

describe('Java-compatible partitioner', () => {
  it('computes the same murmur2 as kafkajs (and so the Java client) for keys of every length', () => {
    for (let length = 0; length < 64; length++) {
      for (let n = 0; n < 20; n++) {
        const key = Buffer.from(Array.from({ length }, () => Math.floor(Math.random() * 256)));
        expect(murmur2(key)).toBe(kafkajsMurmur2(key));
      }
    }
    // Known values of the Java client's Utils.murmur2 (KafkaProducer tests).
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
  });

  it("puts every key on the partition kafkajs' default (Java-compatible) partitioner picks, cached or not", () => {
    const ours = JavaCompatiblePartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 6, 17]) {
      for (let i = 0; i < 500; i++) {
        const key = `project-${Math.random().toString(36).slice(2)}-é${i}`;
        const args = { topic: 't', partitionMetadata: partitionMetadata(partitions), message: { key, value: 'v' } };
        expect(ours(args)).toBe(theirs(args));
        expect(ours(args)).toBe(theirs(args));
        const asBuffer = { ...args, message: { key: Buffer.from(key), value: 'v' } };
        expect(ours(asBuffer)).toBe(theirs(asBuffer));
      }
    }
  });

  it('keeps an explicit partition', () => {
    expect(JavaCompatiblePartitioner()({ topic: 't', partitionMetadata: partitionMetadata(6), message: { key: 'k', value: 'v', partition: 4 } })).toBe(4);
  });
});
