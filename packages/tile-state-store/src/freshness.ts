import type { Pool } from '@pulseboard/db';
import type { AppliedProgress } from '@pulseboard/contracts';

/**
 * The rule engine's report of how far it applied one events partition
 * (rule_engine_freshness, written about every second by the partition's
 * owner): the source of a project's freshness, with Kafka's end offset
 * (`freshnessOf` in @pulseboard/contracts). Undefined before any engine owned it.
 */
export async function readAppliedProgress(pool: Pool, topic: string, partition: number): Promise<AppliedProgress | undefined> {
  const { rows } = await pool.query<{ next_offset: string; applied_through: Date | null }>(
    'SELECT next_offset::text, applied_through FROM rule_engine_freshness WHERE topic = $1 AND partition = $2',
    [topic, partition],
  );
  const row = rows[0];
  return row === undefined ? undefined : { nextOffset: BigInt(row.next_offset), appliedThrough: row.applied_through?.getTime() ?? null };
}
