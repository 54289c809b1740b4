import type { PoolClient } from 'pg';
import { inTransaction, type Pool } from '@pulseboard/db';

/**
 * Runs a capped insert in a transaction holding an advisory lock on `what`
 * (e.g. `tiles:<project>`): the count the insert checks then includes every
 * concurrent insert that committed first, so the cap holds under concurrency.
 */
/** Takes the advisory lock of a cap on `what` for the rest of the caller's transaction. */
export async function lockCap(client: PoolClient, what: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`pulseboard-cap:${what}`]);
}

export function withCapLock<T>(pool: Pool, what: string, insert: (client: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await lockCap(client, what);
    return insert(client);
  });
}
