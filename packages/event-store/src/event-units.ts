import type { Queryable } from '@pulseboard/db';

/**
 * The `unit` attribute (when a string) of each of a project's events still
 * stored, by event id: what a tile's history shows beside a change. One probe
 * of events_id_idx per day partition and id; an event gone (retention) is
 * absent from the map.
 */
export async function selectEventUnits(pool: Queryable, projectKey: string, eventIds: readonly number[]): Promise<Map<number, string | null>> {
  if (eventIds.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; unit: string | null }>(
    `SELECT DISTINCT ON (id) id::text AS id, CASE WHEN jsonb_typeof(attributes->'unit') = 'string' THEN attributes->>'unit' END AS unit
       FROM events WHERE project_key = $1 AND id = ANY($2::bigint[])`,
    [projectKey, eventIds],
  );
  return new Map(rows.map((r) => [Number(r.id), r.unit]));
}
