import type pg from 'pg';
import { inTransaction } from './transaction.ts';

/** What a read needs of a connection: a pool or one client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Runs several reads on one connection in one REPEATABLE READ, READ ONLY
 * transaction, so they see the same snapshot: a list page and its
 * total_count never disagree about a batch that committed between them.
 */
export function inReadSnapshot<R>(pool: pg.Pool, work: (client: Queryable) => Promise<R>): Promise<R> {
  return inTransaction(pool, work, { isolation: 'repeatable read', readOnly: true });
}
