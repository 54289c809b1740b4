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

/** One group of a grouped tile (rule `group_by`). */
export interface TileGroupRecord {
  key: string;
  status: TileStatus;
  value: TileValue;
  version: number;
  changed_at: Date | null;
}

/** A grouped tile's groups per status and its refused events (the `evaluation.groups` of its own state). */
export interface TileGroupTally {
  counts: Record<TileStatus, number>;
  refused: number;
}

/**
 * A page of a grouped tile's groups, worst status first (critical, warning,
 * stale, unknown, ok), then by key; how many groups it holds, and its tally
 * (null before its first event).
 */
export async function selectTileGroups(
  pool: Pool,
  tileId: number,
  page: { perPage: number; offset: number },
): Promise<{ rows: TileGroupRecord[]; total: number; tally: TileGroupTally | null }> {
  // One statement: the page, the count and the tally from one snapshot (the engine writes them together).
  const { rows } = await pool.query<TileGroupRecord & { total: number; tally: TileGroupTally | null }>(
    `WITH ranked AS (
       SELECT group_key AS key, status, value, version::int AS version, changed_at,
              CASE status WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 WHEN 'stale' THEN 2 WHEN 'unknown' THEN 3 ELSE 4 END AS rank
         FROM tile_group_states WHERE tile_id = $1
     ), counted AS (SELECT count(*)::int AS total FROM ranked),
     paged AS (SELECT * FROM ranked ORDER BY rank, key LIMIT $2 OFFSET $3)
     SELECT p.key, p.status, p.value, p.version, p.changed_at, c.total,
            (SELECT evaluation->'groups' FROM tile_states WHERE tile_id = $1) AS tally
       FROM counted c LEFT JOIN paged p ON true
      ORDER BY p.rank, p.key`,
    [tileId, page.perPage, page.offset],
  );
  const first = rows[0];
  return {
    rows: rows.filter((row) => row.key !== null).map(({ key, status, value, version, changed_at }) => ({ key, status, value, version, changed_at })),
    total: first?.total ?? 0,
    tally: first?.tally ?? null,
  };
}
