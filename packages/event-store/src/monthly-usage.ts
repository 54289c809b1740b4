import type { Pool } from '@pulseboard/db';

/** The store's count of a project's events in a month: what a lost Redis quota counter restarts from. */
export function monthlyUsageLoader(pool: Pool) {
  return async (projectKey: string, monthStart: Date): Promise<number> => {
    // event_count is a bigint; @pulseboard/db has pg parse int8 as a number.
    const { rows } = await pool.query<{ event_count: number }>('SELECT event_count FROM project_monthly_usage WHERE project_key = $1 AND month = $2::date', [
      projectKey,
      monthStart.toISOString().slice(0, 10),
    ]);
    return rows[0]?.event_count ?? 0;
  };
}
