import type { Pool, PoolClient } from 'pg';

/** A tile as a dashboard shows it: what it is and where, not its state. */
export interface DashboardTile {
  tile_id: number;
  tile_name: string;
  kind: string;
  position: number;
  rule: Record<string, unknown>;
  settings: Record<string, unknown>;
}

/** A project's tiles as of one revision (read in one statement, so the pair agrees). */
export interface DashboardTiles {
  /** 0 when there is no such project (or it was deleted). */
  revision: number;
  tiles: DashboardTile[];
}

/**
 * The tiles of a live project in dashboard order with the project's revision,
 * in one snapshot: a tile write bumps the revision in its own transaction, so
 * the tiles are exactly those of that revision. For broadcast's tile messages.
 */
export async function loadDashboardTiles(pool: Pool, projectKey: string): Promise<DashboardTiles> {
  const { rows } = await pool.query<{ revision: string; tiles: DashboardTile[] | null }>(
    `SELECT p.revision::text AS revision,
            (SELECT json_agg(json_build_object('tile_id', t.id, 'tile_name', t.name, 'kind', t.kind, 'position', t.position, 'rule', t.rule, 'settings', t.settings) ORDER BY t.position, t.id)
               FROM tiles t WHERE t.project_key = p.project_key) AS tiles
       FROM projects p WHERE p.project_key = $1 AND p.deleted_at IS NULL`,
    [projectKey],
  );
  const row = rows[0];
  if (row === undefined) return { revision: 0, tiles: [] };
  return { revision: Number(row.revision), tiles: (row.tiles ?? []).map((t) => ({ ...t, tile_id: Number(t.tile_id) })) };
}

/**
 * Some of a live project's tiles (by id; an id that is not one of its tiles
 * is absent from the answer: deleted) with the project's revision, in one
 * snapshot: what broadcast reads when a control message names the tile that
 * changed, instead of every tile of the project.
 */
export async function loadDashboardTilesById(pool: Pool, projectKey: string, tileIds: readonly number[]): Promise<DashboardTiles> {
  const { rows } = await pool.query<{ revision: string; tiles: DashboardTile[] | null }>(
    `SELECT p.revision::text AS revision,
            (SELECT json_agg(json_build_object('tile_id', t.id, 'tile_name', t.name, 'kind', t.kind, 'position', t.position, 'rule', t.rule, 'settings', t.settings) ORDER BY t.position, t.id)
               FROM tiles t WHERE t.project_key = p.project_key AND t.id = ANY($2::bigint[])) AS tiles
       FROM projects p WHERE p.project_key = $1 AND p.deleted_at IS NULL`,
    [projectKey, tileIds],
  );
  const row = rows[0];
  if (row === undefined) return { revision: 0, tiles: [] };
  return { revision: Number(row.revision), tiles: (row.tiles ?? []).map((t) => ({ ...t, tile_id: Number(t.tile_id) })) };
}

/** A tile as a snapshot of the dashboard needs it: its definition and when it was made (its state's time before its first change). */
export interface SnapshotTile extends DashboardTile {
  created_at: Date;
}

/**
 * A project's tiles in dashboard order, read on the caller's client so that
 * it can share one REPEATABLE READ snapshot with the caller's own tables
 * (broadcast joins them with tile_states for a subscriber's snapshot).
 */
export async function snapshotTiles(client: Pick<PoolClient, 'query'>, projectKey: string): Promise<SnapshotTile[]> {
  const { rows } = await client.query<SnapshotTile>(
    `SELECT id AS tile_id, name AS tile_name, kind, position, rule, settings, created_at
       FROM tiles WHERE project_key = $1 ORDER BY position, id`,
    [projectKey],
  );
  return rows.map((t) => ({ ...t, tile_id: Number(t.tile_id) }));
}
