import type { PoolClient } from 'pg';
import type { EvaluationState, GroupRecord, TileState } from '@pulseboard/rules';
import type { TileStatus, TileValue } from '@pulseboard/contracts';

/** The engine's SQL on tile_group_states: the groups of grouped tiles (rule `group_by`). */

/** A group as memory holds it: its record and when it needs `advance` next. */
export interface StoredGroup extends GroupRecord {
  wakeAt: number | null;
}

/** tile id → group key → group. */
export type TileGroups = Map<number, Map<string, StoredGroup>>;

/** A group written (`group` null: retired or dropped, its row deleted). */
export interface GroupWrite {
  tileId: number;
  projectKey: string;
  key: string;
  group: StoredGroup | null;
}

interface GroupRow {
  tile_id: string;
  group_key: string;
  status: TileStatus;
  value: TileValue;
  version: string;
  last_event_id: string | null;
  changed_at: Date | null;
  evaluation: EvaluationState;
  last_seen: Date;
  wake_at: Date | null;
}

export async function loadGroups(tx: PoolClient, projectKey: string): Promise<TileGroups> {
  const { rows } = await tx.query<GroupRow>(
    `SELECT tile_id, group_key, status, value, version, last_event_id, changed_at, evaluation, last_seen, wake_at
       FROM tile_group_states WHERE project_key = $1`,
    [projectKey],
  );
  const groups: TileGroups = new Map();
  for (const r of rows) {
    const tileId = Number(r.tile_id);
    const state: TileState = {
      status: r.status,
      value: r.value,
      version: Number(r.version),
      last_event_id: r.last_event_id === null ? null : Number(r.last_event_id),
      changed_at: r.changed_at?.getTime() ?? null,
      evaluation: r.evaluation,
    };
    let tile = groups.get(tileId);
    if (tile === undefined) groups.set(tileId, (tile = new Map()));
    tile.set(r.group_key, { state, seen: r.last_seen.getTime(), wakeAt: r.wake_at?.getTime() ?? null });
  }
  return groups;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Upserts the groups written and deletes those gone, one statement each. */
export async function writeGroups(tx: PoolClient, writes: readonly GroupWrite[]): Promise<void> {
  const kept = writes.filter((w): w is GroupWrite & { group: StoredGroup } => w.group !== null);
  const gone = writes.filter((w) => w.group === null);
  if (gone.length > 0) {
    await tx.query(
      'DELETE FROM tile_group_states g USING unnest($1::bigint[], $2::text[]) AS d(tile_id, group_key) WHERE g.tile_id = d.tile_id AND g.group_key = d.group_key',
      [gone.map((w) => w.tileId), gone.map((w) => w.key)],
    );
  }
  if (kept.length === 0) return;
  await tx.query(
    `INSERT INTO tile_group_states AS g (tile_id, group_key, project_key, status, value, version, last_event_id, changed_at, evaluation, last_seen, wake_at, updated_at)
     SELECT *, now() FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::bigint[], $7::bigint[], $8::timestamptz[], $9::jsonb[], $10::timestamptz[], $11::timestamptz[])
     ON CONFLICT (tile_id, group_key) DO UPDATE SET project_key = excluded.project_key, status = excluded.status, value = excluded.value,
       version = excluded.version, last_event_id = excluded.last_event_id, changed_at = excluded.changed_at, evaluation = excluded.evaluation,
       last_seen = excluded.last_seen, wake_at = excluded.wake_at, updated_at = now()`,
    [
      kept.map((w) => w.tileId),
      kept.map((w) => w.key),
      kept.map((w) => w.projectKey),
      kept.map((w) => w.group.state.status),
      kept.map((w) => JSON.stringify(w.group.state.value)),
      kept.map((w) => w.group.state.version),
      kept.map((w) => w.group.state.last_event_id),
      kept.map((w) => iso(w.group.state.changed_at)),
      kept.map((w) => JSON.stringify(w.group.state.evaluation)),
      kept.map((w) => iso(w.group.seen)),
      kept.map((w) => iso(w.group.wakeAt)),
    ],
  );
}

/** Every group of deleted tiles. */
export async function deleteTileGroups(tx: PoolClient, tileIds: readonly number[]): Promise<void> {
  if (tileIds.length > 0) await tx.query('DELETE FROM tile_group_states WHERE tile_id = ANY($1::bigint[])', [tileIds]);
}
