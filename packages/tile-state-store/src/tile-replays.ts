import type { Pool } from '@pulseboard/db';
import type { TileStatus, TileValue } from '@pulseboard/contracts';

/**
 * Replays to apply: the gateway asks (a row of tile_replays, the rule
 * engine's table), the engine instance holding the project's partition does
 * it and writes the outcome back (services/rule-engine/src/replay.ts).
 */

interface PublishedState {
  status: TileStatus;
  value: TileValue;
  version: number;
  last_event_id: number | null;
  changed_at: string | null;
}

export type AppliedReplay =
  | { ok: true; state: PublishedState; live: PublishedState; equal: boolean; events_replayed: number; changes_total: number; until: string }
  | { ok: false; field?: string; message: string };

/** Asks for the replay, with the project revision the asker knows (the engine's rules must be at least that new). */
export async function requestReplay(pool: Pool, tileId: number, projectKey: string, since: Date, revision: number): Promise<number> {
  const { rows } = await pool.query<{ id: string }>(
    'INSERT INTO tile_replays (tile_id, project_key, since, revision) VALUES ($1, $2, $3, $4) RETURNING id::text',
    [tileId, projectKey, since, revision],
  );
  return Number(rows[0]!.id);
}

/**
 * The outcome, polled until `waitMs` passed; then the request is withdrawn
 * if the engine has not taken it (undefined), or its outcome read once the
 * engine's transaction that took it has committed (the row is locked until then).
 */
export async function awaitReplay(pool: Pool, id: number, waitMs: number): Promise<AppliedReplay | undefined> {
  const deadline = Date.now() + waitMs;
  const read = async () =>
    (await pool.query<{ status: string; result: AppliedReplay | null }>('SELECT status, result FROM tile_replays WHERE id = $1', [id])).rows[0];
  for (;;) {
    const row = await read();
    if (row?.result) return row.result;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { rowCount } = await pool.query("UPDATE tile_replays SET status = 'cancelled', finished_at = now() WHERE id = $1 AND status = 'pending'", [id]);
  if (rowCount === 1) return undefined;
  return (await read())?.result ?? undefined;
}
