import type pg from 'pg';

/** What a read needs of a connection: a pool or one client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Runs several reads on one connection in one REPEATABLE READ, READ ONLY
 * transaction, so they see the same snapshot: a list page and its
 * total_count never disagree about a batch that committed between them.
 */
export async function inReadSnapshot<R>(pool: pg.Pool, work: (client: Queryable) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
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
