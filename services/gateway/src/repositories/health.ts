import type { Pool } from '@pulseboard/db';

/** Whether Postgres answers at all (readiness). */
export function databaseAnswers(pool: Pool): Promise<boolean> {
  return pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
}
