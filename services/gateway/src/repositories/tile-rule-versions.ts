import type { Pool } from '@pulseboard/db';

/**
 * Where a tile's rule stands, read from the gateway's own tables for what the
 * rule engine's (through @pulseboard/tile-state-store) are compared with.
 */

/** md5 of the tile's current rule's jsonb text: the fingerprint the engine stamps on the states it writes. */
export async function tileRuleFingerprint(pool: Pool, tileId: number): Promise<string | undefined> {
  const { rows } = await pool.query<{ fingerprint: string }>('SELECT md5(rule::text) AS fingerprint FROM tiles WHERE id = $1', [tileId]);
  return rows[0]?.fingerprint;
}

/** The project's control-plane revision: a replay asks the engine for rules at least this new. */
export async function projectRevision(pool: Pool, projectKey: string): Promise<number | undefined> {
  const { rows } = await pool.query<{ revision: number }>('SELECT revision FROM projects WHERE project_key = $1', [projectKey]);
  return rows[0]?.revision;
}
