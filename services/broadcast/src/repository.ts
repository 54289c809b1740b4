import type { Pool } from 'pg';
import { inReadSnapshot } from '@pulseboard/db';
import type { TileChange } from '@pulseboard/contracts';
import { snapshotTiles, type Reader } from '@pulseboard/control-plane';

/** Every SQL statement of the broadcast service; it only reads (the rule engine's tables; the control plane's through @pulseboard/control-plane). */

/** Credentials and projects are read through the control plane's read models (the gateway owns those tables). */
export { accountProjects, authenticateReader, liveCredentials, liveProjects, type VisibleProject } from '@pulseboard/control-plane';

/** Who a connection authenticated as (authenticateReader, in @pulseboard/control-plane). */
export type Principal = Reader;

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
 * is current to. One REPEATABLE READ transaction, so the snapshot's tiles, their
 * states and the position agree.
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
    // The tiles through the control plane's read model, on this transaction's client: same snapshot.
    const tiles = await snapshotTiles(client, projectKey);
    const { rows: states } = await client.query<{
      tile_id: string;
      status: string;
      value: unknown;
      version: number;
      last_event_id: number | null;
      changed_at: Date;
    }>('SELECT tile_id::text AS tile_id, status, value, version, last_event_id, changed_at FROM tile_states WHERE tile_id = ANY($1::bigint[])', [
      tiles.map((t) => t.tile_id),
    ]);
    const stateOf = new Map(states.map((s) => [Number(s.tile_id), s]));
    return {
      kind: 'snapshot',
      position: position[0]?.max ?? 0,
      tiles: tiles.map((t): TileSnapshot => {
        const s = stateOf.get(t.tile_id);
        return {
          tile_id: t.tile_id,
          tile_name: t.tile_name,
          status: s?.status ?? 'unknown',
          value: s === undefined ? null : s.value,
          version: s?.version ?? 0,
          last_event_id: s?.last_event_id ?? null,
          changed_at: (s?.changed_at ?? t.created_at).toISOString(),
          kind: t.kind,
          tile_position: t.position,
          rule: t.rule,
          settings: t.settings,
        };
      }),
    };
  });
}
