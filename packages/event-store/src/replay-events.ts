import type { Queryable } from '@pulseboard/db';

/**
 * What the rule engine reads of the store to apply a replay
 * (POST /tiles/:id/replay with dry_run false): how far the store has stored a
 * partition of the events topic, and the stored events in the order the
 * engine met them. Both on the engine's transaction.
 */

/** The next offset the store will store on the partition (its committed position in store_offsets); -1 before it stored any. */
export async function storeNextOffset(client: Queryable, key: { groupId: string; topic: string; partition: number }): Promise<number> {
  const { rows } = await client.query<{ next: string }>(
    'SELECT next_offset::text AS next FROM store_offsets WHERE group_id = $1 AND topic = $2 AND partition = $3',
    [key.groupId, key.topic, key.partition],
  );
  return Number(rows[0]?.next ?? -1);
}

/**
 * A project's stored events received from $2 on, of partition $3 below offset
 * $4, in the engine's order. Bounded by the store's events_project_received_idx
 * (project, received_at) in every partition of the events table.
 */
export const REPLAY_EVENTS_SQL = `SELECT id::text, type, name, (extract(epoch FROM occurred_at) * 1000)::float8 AS time, (extract(epoch FROM received_at) * 1000)::float8 AS received, severity, source, channel, labels, attributes
  FROM events WHERE project_key = $1 AND received_at >= $2 AND (kafka_partition IS NULL OR (kafka_partition = $3 AND kafka_offset < $4))
 ORDER BY kafka_partition NULLS FIRST, kafka_offset, received_at, id`;

/** A stored event as a replay reads it: times as epoch ms. */
export interface ReplayEventRow {
  id: string;
  type: string;
  name: string;
  time: number;
  received: number;
  severity: string | null;
  source: string | null;
  channel: string | null;
  labels: string[];
  attributes: Record<string, unknown>;
}

/** A cursor over the project's events received from `since` on, of `partition` below offset `before` (REPLAY_EVENTS_SQL), in the caller's transaction. */
export async function openReplayEvents(
  tx: Queryable,
  scan: { projectKey: string; since: Date; partition: number; before: number },
): Promise<{ fetch: (count: number) => Promise<ReplayEventRow[]>; close: () => Promise<void> }> {
  await tx.query(`DECLARE tile_replay NO SCROLL CURSOR FOR ${REPLAY_EVENTS_SQL}`, [scan.projectKey, scan.since, scan.partition, scan.before]);
  return {
    fetch: async (count) => (await tx.query<ReplayEventRow>(`FETCH ${count} FROM tile_replay`)).rows,
    close: async () => void (await tx.query('CLOSE tile_replay')),
  };
}
