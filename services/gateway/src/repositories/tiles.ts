import type { Pool } from '@pulseboard/db';
import type { Page } from '../params/pagination.ts';
import { controlWrite, type ControlFeed } from './control-writes.ts';
import { lockCap } from './cap-lock.ts';

export interface TileRecord {
  id: number;
  project_key: string;
  name: string;
  kind: string;
  rule: Record<string, unknown>;
  settings: Record<string, unknown>;
  position: number;
  notification_service_ids: number[];
  created_at: Date;
  updated_at: Date;
}

export interface NewTile {
  name: string;
  kind: string;
  rule: Record<string, unknown>;
  settings?: Record<string, unknown> | undefined;
  position?: number | undefined;
  notification_service_ids?: number[] | undefined;
}

export type TileChanges = Partial<NewTile>;

const COLUMNS = 't.id, t.project_key, t.name, t.kind, t.rule, t.settings, t.position, t.notification_service_ids, t.created_at, t.updated_at';

// Tiles of soft-deleted projects stay in the table (the rows cascade only on a hard delete) but are never shown.
const VISIBLE = 'JOIN projects p ON p.project_key = t.project_key AND p.deleted_at IS NULL';

/** One page of the tiles of the given projects, in dashboard order. */
export async function listTiles(pool: Pool, projectKeys: string[], page: Page): Promise<{ rows: TileRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    pool.query<TileRecord>(
      `SELECT ${COLUMNS} FROM tiles t ${VISIBLE} WHERE t.project_key = ANY($1::text[]) ORDER BY t.project_key, t.position, t.id LIMIT $2 OFFSET $3`,
      [projectKeys, page.perPage, page.offset],
    ),
    pool.query<{ total: number }>(`SELECT count(*)::bigint AS total FROM tiles t ${VISIBLE} WHERE t.project_key = ANY($1::text[])`, [projectKeys]),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}

/** A tile, if it belongs to one of the given projects. */
export async function findTile(pool: Pool, projectKeys: string[], id: number): Promise<TileRecord | undefined> {
  const { rows } = await pool.query<TileRecord>(`SELECT ${COLUMNS} FROM tiles t ${VISIBLE} WHERE t.id = $1 AND t.project_key = ANY($2::text[])`, [
    id,
    projectKeys,
  ]);
  return rows[0];
}

/**
 * Tile writes are control-plane writes (control-writes.ts): each bumps its
 * project's revision and announces itself on the control topic in its own
 * transaction, so the rule engine evaluates every event accepted after the
 * answer with the changed rules. A new tile is refused (`full`) when the
 * project already has `maxTiles`, counted under a per-project advisory lock
 * taken first in that transaction, so concurrent creates cannot pass the cap.
 */
export async function insertTile(pool: Pool, feed: ControlFeed, projectKey: string, body: NewTile, maxTiles: number): Promise<TileRecord | 'full'> {
  const tile = await controlWrite(
    pool,
    feed,
    projectKey,
    (t: TileRecord) => ({ change: 'tile_created', tileId: t.id }),
    async (client) => {
      await lockCap(client, `tiles:${projectKey}`);
      const { rows } = await client.query<TileRecord>(
        `INSERT INTO tiles AS t (project_key, name, kind, rule, settings, position, notification_service_ids)
       SELECT $1, $2, $3, $4, $5, coalesce($6, (SELECT coalesce(max(position) + 1, 0) FROM tiles WHERE project_key = $1)), $7::bigint[]
       WHERE (SELECT count(*) FROM tiles WHERE project_key = $1) < $8
       RETURNING ${COLUMNS}`,
        [
          projectKey,
          body.name,
          body.kind,
          JSON.stringify(body.rule),
          JSON.stringify(body.settings ?? {}),
          body.position ?? null,
          body.notification_service_ids ?? [],
          maxTiles,
        ],
      );
      return rows[0];
    },
  );
  return tile ?? 'full';
}

// Columns an update may set; names fixed here, values always parameters.
const UPDATABLE = ['name', 'kind', 'rule', 'settings', 'position', 'notification_service_ids'] as const;

export async function updateTile(pool: Pool, feed: ControlFeed, tile: { id: number; project_key: string }, body: TileChanges): Promise<TileRecord | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [tile.id];
  for (const column of UPDATABLE) {
    const value = body[column];
    if (value === undefined) continue;
    // Arrays are Postgres arrays (bigint[]); other objects are jsonb.
    params.push(typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  return controlWrite(
    pool,
    feed,
    tile.project_key,
    (t: TileRecord) => ({ change: 'tile_updated', tileId: t.id }),
    async (client) => {
      const { rows } = await client.query<TileRecord>(
        `UPDATE tiles AS t SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE t.id = $1 RETURNING ${COLUMNS}`,
        params,
      );
      return rows[0];
    },
  );
}

export async function deleteTile(pool: Pool, feed: ControlFeed, tile: { id: number; project_key: string }): Promise<boolean> {
  const deleted = await controlWrite(
    pool,
    feed,
    tile.project_key,
    () => ({ change: 'tile_deleted', tileId: tile.id }),
    async (client) => {
      const { rowCount } = await client.query('DELETE FROM tiles WHERE id = $1', [tile.id]);
      return (rowCount ?? 0) > 0 ? true : undefined;
    },
  );
  return deleted === true;
}
