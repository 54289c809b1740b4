import type { Pool } from '@pulseboard/db';

/** Whether Postgres answers a trivial query within `timeoutMs` (a probe must not hang on a connect timeout). */
export function databaseAnswers(pool: Pool, timeoutMs = 1000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const answer = pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}
