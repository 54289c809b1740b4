import type { Pool } from 'pg';
import { inReadSnapshot } from '@pulseboard/db';
import type { TileChange } from '@pulseboard/contracts';

/** Every SQL statement of the broadcast service; it only reads (the rule engine's tables; the control plane's through @pulseboard/control-plane). */

import type { VisibleProject } from '@pulseboard/control-plane';

/** Credentials and projects are read through the control plane's read models (the gateway owns those tables). */
export { accountProjects, findUserByTokenHash as userByTokenHash, liveCredentials, liveProjects, projectByKeyHash, type VisibleProject } from '@pulseboard/control-plane';

export type Principal = { kind: 'project'; credentialHash: Buffer; projects: VisibleProject[] } | { kind: 'user'; credentialHash: Buffer; accountId: number; projects: VisibleProject[] };

export interface TileSnapshot {
  tile_id: number;
  tile_name: string;
  status: string;
  value: unknown;
  version: number;
  last_event_id: number | null;
  changed_at: string | null;
  kind: string;
  /** The tile's place in dashboard order. */
  tile_position: number;
  rule: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export type CatchUp = { kind: 'changes'; changes: TileChange[] } | { kind: 'snapshot'; position: number; tiles: TileSnapshot[] };

/**
 * What a subscriber needs to be current: the changes after `since` when there
 * are at most `max` of them, otherwise every tile's state with the position it
 * is current to. One REPEATABLE READ transaction, so the snapshot's tiles and
 * position agree.
 */
export async function catchUp(pool: Pool, projectKey: string, since: number | undefined, max: number): Promise<CatchUp> {
  return inReadSnapshot(pool, async (client): Promise<CatchUp> => {
    if (since !== undefined) {
      const { rows } = await client.query<TileChange & { changed_at: Date }>(
        `SELECT id AS position, tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause
           FROM tile_state_history WHERE project_key = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [projectKey, since, max + 1],
      );
      const { rows: top } = await client.query<{ max: number | null }>('SELECT max(id) AS max FROM tile_state_history');
      // A position from the future (another installation, a reset) cannot be resumed from.
      if (rows.length <= max && since <= (top[0]?.max ?? 0)) {
        return { kind: 'changes', changes: rows.map((r) => ({ ...r, changed_at: r.changed_at.toISOString() })) };
      }
    }
    const { rows: position } = await client.query<{ max: number | null }>('SELECT max(id) AS max FROM tile_state_history WHERE project_key = $1', [projectKey]);
    const { rows: tiles } = await client.query<TileSnapshot & { changed_at: Date | null }>(
      `SELECT t.id AS tile_id, t.name AS tile_name, coalesce(s.status, 'unknown') AS status, coalesce(s.value, 'null'::jsonb) AS value,
              coalesce(s.version, 0) AS version, s.last_event_id, coalesce(s.changed_at, t.created_at) AS changed_at,
              t.kind, t.position AS tile_position, t.rule, t.settings
         FROM tiles t LEFT JOIN tile_states s ON s.tile_id = t.id WHERE t.project_key = $1 ORDER BY t.position, t.id`,
      [projectKey],
    );
    return { kind: 'snapshot', position: position[0]?.max ?? 0, tiles: tiles.map((t) => ({ ...t, changed_at: t.changed_at?.toISOString() ?? null })) };
  });
}
