import type { Pool } from '@pulseboard/db';
import type { TileChangeCause, TileStatus, TileValue } from '@pulseboard/contracts';

export interface TileHistoryRow {
  position: number;
  status: TileStatus;
  previous_status: TileStatus;
  value: TileValue;
  version: number;
  event_id: number | null;
  cause: TileChangeCause;
  changed_at: Date;
}

/** Which rows of a list: `perPage` of them after the first `offset`. */
export interface PageWindow {
  perPage: number;
  offset: number;
}

/**
 * A page of one tile's changes in [since, until), newest first, and how many
 * there are in the span: the tile's own (`group` ''), or one group's of a grouped tile (GET /tiles/:id/history; the unit its events carry is
 * the store's, read through @pulseboard/event-store).
 */
export async function selectTileHistory(
  pool: Pool,
  tileId: number,
  since: Date,
  until: Date,
  page: PageWindow,
  group = '',
): Promise<{ rows: TileHistoryRow[]; total: number }> {
  const { rows } = await pool.query<TileHistoryRow & { total: number }>(
    `WITH span AS (
       SELECT id, status, previous_status, value, version, event_id, cause, changed_at
         FROM tile_state_history WHERE tile_id = $1 AND group_key = $6 AND changed_at >= $2 AND changed_at < $3
     ), counted AS (SELECT count(*)::int AS total FROM span),
     paged AS (SELECT * FROM span ORDER BY id DESC LIMIT $4 OFFSET $5)
     SELECT p.id AS position, p.status, p.previous_status, p.value, p.version, p.event_id, p.cause, p.changed_at, c.total
       FROM counted c
       LEFT JOIN paged p ON true
      ORDER BY p.id DESC`,
    [tileId, since, until, page.perPage, page.offset, group],
  );
  const total = rows[0]?.total ?? 0;
  return { rows: rows.filter((row) => row.position !== null), total };
}
