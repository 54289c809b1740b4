import type { Pool } from '@pulseboard/db';
import { freshnessOf, type Freshness } from '@pulseboard/contracts';
import { partitionForKey, type EndOffsetsReader } from '@pulseboard/kafka-kit';
import { readAppliedProgress } from '@pulseboard/tile-state-store';

/** A project's freshness now (GET /api/v1/projects/{key}). */
export type ProjectFreshness = (projectKey: string) => Promise<Freshness>;

/**
 * How far behind live a project's tiles are: its events partition (the
 * producer's partitioner over the topic's partition count) compared between
 * Kafka's end offset, read at most once a second for all requests, and the
 * rule engine's report of that partition. Unknown while Kafka does not answer.
 */
export function projectFreshness(pool: Pool, topic: string, ends: EndOffsetsReader, now: () => number = Date.now): ProjectFreshness {
  return async (projectKey) => {
    const topicEnds = await ends.read();
    if (topicEnds === undefined || topicEnds.partitions.size === 0) return freshnessOf(undefined, undefined, now());
    const partition = partitionForKey(projectKey, topicEnds.partitions.size);
    return freshnessOf(await readAppliedProgress(pool, topic, partition), topicEnds.partitions.get(partition), now());
  };
}
