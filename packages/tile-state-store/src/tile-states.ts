import type { Pool } from '@pulseboard/db';
import type { TileStatus, TileValue } from '@pulseboard/contracts';
import type { EvaluationState } from '@pulseboard/rules';

export interface TileStateRecord {
  status: TileStatus;
  value: TileValue;
  version: number;
  last_event_id: number | null;
  changed_at: Date | null;
}

/** A tile's state as the rule engine last committed it (GET /tiles/:id/state). */
export async function findTileState(pool: Pool, tileId: number): Promise<TileStateRecord | undefined> {
  const { rows } = await pool.query<TileStateRecord>('SELECT status, value, version, last_event_id, changed_at FROM tile_states WHERE tile_id = $1', [tileId]);
  return rows[0];
}

/** A tile's committed state with what the engine evaluates it from, and whether it is on the tile's current rule. */
export interface EvaluatedTileState extends TileStateRecord {
  evaluation: EvaluationState;
  on_current_rule: boolean;
}

/**
 * As `findTileState`, with the evaluation state (replay settles the live state
 * to the same instant as its own). `ruleFingerprint`: the tile's current rule's
 * (md5 of its jsonb text, as the engine stamps the states it writes).
 */
export async function findEvaluatedTileState(pool: Pool, tileId: number, ruleFingerprint: string): Promise<EvaluatedTileState | undefined> {
  const { rows } = await pool.query<EvaluatedTileState>(
    `SELECT status, value, version, last_event_id, changed_at, evaluation, rule_fingerprint = $2 AS on_current_rule
       FROM tile_states WHERE tile_id = $1`,
    [tileId, ruleFingerprint],
  );
  return rows[0];
}
