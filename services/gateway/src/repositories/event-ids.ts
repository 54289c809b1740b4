import type { Pool } from '@pulseboard/db';

/**
 * Reserves `count` more blocks of event ids for this process, in one round
 * trip: the first id of each. The sequence's INCREMENT is the block size
 * (gateway migration), and a sequence never goes back, so no id is handed out
 * twice, across restarts too.
 */
export async function nextEventIdBlocks(pool: Pool, count: number): Promise<number[]> {
  // bigint; @pulseboard/db has pg parse int8 as a number (ids stay below 2^53).
  const { rows } = await pool.query<{ start: number }>("SELECT nextval('event_id_blocks') AS start FROM generate_series(1, $1::int)", [count]);
  return rows.map((r) => r.start);
}
