import type { Pool } from '@pulseboard/db';

/** The store's count of a project's events in a month: what a lost Redis quota counter restarts from. */
export function monthlyUsageLoader(pool: Pool) {
  return async (projectKey: string, monthStart: Date): Promise<number> => {
    // event_count is a bigint, which pg returns as a string.
    const { rows } = await pool.query<{ event_count: string }>(
      'SELECT event_count FROM project_monthly_usage WHERE project_key = $1 AND month = $2::date',
      [projectKey, monthStart.toISOString().slice(0, 10)],
    );
    return Number(rows[0]?.event_count ?? 0);
  };
}
