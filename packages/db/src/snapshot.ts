import type pg from 'pg';

/** What a read needs of a connection: a pool or one client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Runs `work` on one connection of the pool inside a transaction opened by
 * `begin` (plain `BEGIN` unless an isolation level is wanted): committed when
 * `work` returns, rolled back when it throws, the connection released either
 * way. The one place that writes this dance.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>, begin = 'BEGIN'): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs several reads on one connection in one REPEATABLE READ, READ ONLY
 * transaction, so they see the same snapshot: a list page and its
 * total_count never disagree about a batch that committed between them.
 */
export function inReadSnapshot<R>(pool: pg.Pool, work: (client: Queryable) => Promise<R>): Promise<R> {
  return inTransaction(pool, work, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}
