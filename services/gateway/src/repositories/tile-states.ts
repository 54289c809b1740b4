import type { Pool } from '@pulseboard/db';
import type { TileStatus, TileValue } from '@pulseboard/contracts';

export interface TileStateRecord {
  status: TileStatus;
  value: TileValue;
  version: number;
  last_event_id: number | null;
  changed_at: Date | null;
}

/** A tile's state as the rule engine last committed it (tile_states is the engine's; the gateway only reads it). */
export async function findTileState(pool: Pool, tileId: number): Promise<TileStateRecord | undefined> {
  const { rows } = await pool.query<TileStateRecord>('SELECT status, value, version, last_event_id, changed_at FROM tile_states WHERE tile_id = $1', [tileId]);
  return rows[0];
}
