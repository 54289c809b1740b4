import type { ICustomPartitioner } from 'kafkajs';

/**
 * Kafka's murmur2 (Utils.murmur2 of the Java client), in 32-bit integer
 * arithmetic. kafkajs' own version does the same with a Long object per step,
 * which showed up in the gateway's profile.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const m = 0x5bd1e995;
  let h = 0x9747b28c ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = (data[i4]! & 0xff) | ((data[i4 + 1]! & 0xff) << 8) | ((data[i4 + 2]! & 0xff) << 16) | ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  // The Java switch falls through: 3 tail bytes take all three steps, 1 only the last.
  const tail = length & ~3;
  const rest = length & 3;
  if (rest === 3) h ^= (data[tail + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[tail + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[tail]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * The Java client's partitioning of keyed messages (murmur2 of the key, positive,
 * modulo the partition count), so users' own producers and consumers agree with
 * ours. Every message we produce has a key; the answer per key and partition
 * count is remembered, since a gateway sees the same few project keys over and over.
 */
export const JavaCompatiblePartitioner: ICustomPartitioner = () => {
  const cache = new Map<string, number>();
  let counter = Math.floor(Math.random() * 0x7fffffff);
  return ({ partitionMetadata, message }) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const numPartitions = partitionMetadata.length;
    const key = message.key;
    if (key === null || key === undefined) {
      // Unkeyed (not ours): round-robin over partitions that have a leader, as kafkajs does.
      const available = partitionMetadata.filter((p) => p.leader >= 0);
      const pool = available.length > 0 ? available : partitionMetadata;
      return pool[(++counter & 0x7fffffff) % pool.length]!.partitionId;
    }
    if (typeof key !== 'string') return (murmur2(key) & 0x7fffffff) % numPartitions;
    const id = `${numPartitions}:${key}`;
    let partition = cache.get(id);
    if (partition === undefined) {
      partition = (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % numPartitions;
      if (cache.size >= 100_000) cache.clear();
      cache.set(id, partition);
    }
    return partition;
  };
};

/** The partition the producer puts a string key on: what a consumer that owns partitions uses to find a key's owner. */
export function partitionForKey(key: string, numPartitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % numPartitions;
}
