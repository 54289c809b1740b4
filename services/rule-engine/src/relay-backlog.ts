import type { Pool } from 'pg';

export interface RelayBacklog {
  /** Outbox rows (rule outcomes) not yet sent. */
  outbox: number;
  /** History rows (tile changes) after their stream's stored cursor: not yet sent, or sent and not yet marked. */
  history: number;
}

/**
 * What the relay has still to send, read at each scrape: a relay that falls behind (or a
 * partition nobody relays) shows here before it shows on dashboards. Both counts use the
 * relay's own indexes (outbox by id, history by stream and id).
 */
export async function readRelayBacklog(pool: Pool, stream: { groupId: string; eventsTopic: string }): Promise<RelayBacklog> {
  const { rows } = await pool.query<{ outbox: number; history: number }>(
    `SELECT (SELECT count(*) FROM rule_engine_outbox)::int AS outbox,
            (SELECT coalesce(sum((SELECT count(*) FROM tile_state_history h WHERE h.relay_stream = c.stream AND h.id > c.position)), 0)
               FROM rule_engine_relay_cursors c WHERE c.group_id = $1 AND c.topic = $2)::int AS history`,
    [stream.groupId, stream.eventsTopic],
  );
  return rows[0]!;
}
