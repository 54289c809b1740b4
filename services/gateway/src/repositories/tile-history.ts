import type { Pool } from '@pulseboard/db';
import type { TileChangeCause, TileStatus, TileValue } from '@pulseboard/contracts';
import type { Page } from '../params/pagination.ts';

export interface TileHistoryRow {
  position: number;
  status: TileStatus;
  previous_status: TileStatus;
  value: TileValue;
  version: number;
  event_id: number | null;
  cause: TileChangeCause;
  changed_at: Date;
  /** The `unit` attribute (a string) of the event that made the change, if it is still stored. */
  event_unit: string | null;
  total: number;
}

/**
 * A page of one tile's changes in [since, until), newest first.
 * tile_state_history is the rule engine's (it writes and migrates it); the
 * gateway only reads it, as it reads tile_states for GET /tiles/:id/state.
 * The event's unit is read from the store's events (also read-only here) by
 * the event's id, one index probe per day partition and change of the page.
 */
export async function selectTileHistory(pool: Pool, tileId: number, since: Date, until: Date, page: Page): Promise<{ rows: TileHistoryRow[]; total: number }> {
  const { rows } = await pool.query<TileHistoryRow>(
    `WITH span AS (
       SELECT id, project_key, status, previous_status, value, version, event_id, cause, changed_at
         FROM tile_state_history WHERE tile_id = $1 AND changed_at >= $2 AND changed_at < $3
     ), counted AS (SELECT count(*)::int AS total FROM span),
     paged AS (SELECT * FROM span ORDER BY id DESC LIMIT $4 OFFSET $5)
     SELECT p.id AS position, p.status, p.previous_status, p.value, p.version, p.event_id, p.cause, p.changed_at,
            u.unit AS event_unit, c.total
       FROM counted c
       LEFT JOIN paged p ON true
       LEFT JOIN LATERAL (
         SELECT CASE WHEN jsonb_typeof(e.attributes->'unit') = 'string' THEN e.attributes->>'unit' END AS unit
           FROM events e WHERE e.id = p.event_id AND e.project_key = p.project_key LIMIT 1
       ) u ON p.event_id IS NOT NULL
      ORDER BY p.id DESC`,
    [tileId, since, until, page.perPage, page.offset],
  );
  const total = rows[0]?.total ?? 0;
  return { rows: rows.filter((row) => row.position !== null), total };
}
