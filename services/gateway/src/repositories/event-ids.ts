import type { Pool } from '@pulseboard/db';

/**
 * Reserves the next block of event ids for this process: the first id of the
 * block. The sequence's INCREMENT is the block size (gateway migration), and a
 * sequence never goes back, so no id is handed out twice, across restarts too.
 */
export async function nextEventIdBlock(pool: Pool): Promise<number> {
  // bigint; @pulseboard/db has pg parse int8 as a number (ids stay below 2^53).
  const { rows } = await pool.query<{ start: number }>("SELECT nextval('event_id_blocks') AS start");
  return rows[0]!.start;
}
