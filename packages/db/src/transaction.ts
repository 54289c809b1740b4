import type pg from 'pg';

export interface TransactionOptions<R> {
  /** Stronger than Postgres' default READ COMMITTED, e.g. for reads that must see one snapshot. */
  isolation?: 'repeatable read' | 'serializable';
  readOnly?: boolean;
  /**
   * Whether what `work` wrote is kept: when this is false of its result, the
   * transaction is rolled back and the result still returned (a write that
   * found nothing to change, or refused to, answers without a commit).
   */
  commitIf?: (result: R) => boolean;
}

/**
 * Runs `work` on one connection of the pool inside a transaction: committed
 * when `work` returns (unless `commitIf` says otherwise), rolled back when it
 * throws, the connection released either way. The one place that writes
 * BEGIN, COMMIT and ROLLBACK.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>, options: TransactionOptions<R> = {}): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query(beginStatement(options));
    const result = await work(client);
    await client.query(options.commitIf === undefined || options.commitIf(result) ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function beginStatement({ isolation, readOnly }: Pick<TransactionOptions<never>, 'isolation' | 'readOnly'>): string {
  return ['BEGIN', ...(isolation === undefined ? [] : [`ISOLATION LEVEL ${isolation.toUpperCase()}`]), ...(readOnly === true ? ['READ ONLY'] : [])].join(' ');
}
