import type { Pool } from 'pg';

/**
 * Every project's retention in days (CONTRACT Events, Retention): its own, or
 * `fallback` (EVENT_RETENTION_DAYS). A deleted project keeps its events no
 * longer than the fallback (its own shorter retention still holds).
 */
export async function projectRetentions(pool: Pool, fallback: number): Promise<{ project_key: string; days: number }[]> {
  const { rows } = await pool.query<{ project_key: string; days: number }>(
    'SELECT project_key, (CASE WHEN deleted_at IS NULL THEN coalesce(retention_days, $1) ELSE least(coalesce(retention_days, $1), $1) END)::int AS days FROM projects',
    [fallback],
  );
  return rows;
}
