import type { Queryable } from '@pulseboard/db';
import type { TileChange } from '@pulseboard/contracts';

/**
 * What the dashboard feed (broadcast) reads to bring a subscriber up to date,
 * each on the caller's client so several reads share one snapshot.
 */

/** A project's changes after position `since`, oldest first, at most `limit` of them. */
export async function changesAfter(client: Queryable, projectKey: string, since: number, limit: number): Promise<TileChange[]> {
  const { rows } = await client.query<Omit<TileChange, 'changed_at' | 'group'> & { changed_at: Date; group_key: string }>(
    `SELECT id AS position, tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause, group_key
       FROM tile_state_history WHERE project_key = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [projectKey, since, limit],
  );
  // A group's change carries its group, as on the tile-changes topic.
  return rows.map(({ group_key: group, ...r }) => ({ ...r, changed_at: r.changed_at.toISOString(), ...(group === '' ? {} : { group }) }));
}

/** The newest position of the history, of one project or (no key) of every project; 0 before any change. */
export async function latestChangePosition(client: Queryable, projectKey?: string): Promise<number> {
  const { rows } =
    projectKey === undefined
      ? await client.query<{ max: number | null }>('SELECT max(id) AS max FROM tile_state_history')
      : await client.query<{ max: number | null }>('SELECT max(id) AS max FROM tile_state_history WHERE project_key = $1', [projectKey]);
  return rows[0]?.max ?? 0;
}

export interface CommittedTileState {
  tile_id: string;
  status: string;
  value: unknown;
  version: number;
  last_event_id: number | null;
  changed_at: Date;
}

/** The committed states of these tiles (a tile the engine has not changed yet has none). */
export async function tileStatesOf(client: Queryable, tileIds: readonly number[]): Promise<CommittedTileState[]> {
  const { rows } = await client.query<CommittedTileState>(
    'SELECT tile_id::text AS tile_id, status, value, version, last_event_id, changed_at FROM tile_states WHERE tile_id = ANY($1::bigint[])',
    [tileIds],
  );
  return rows;
}
