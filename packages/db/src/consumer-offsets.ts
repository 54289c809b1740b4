import type pg from 'pg';
import { prepared } from './prepared.ts';
import type { Queryable } from './snapshot.ts';

/**
 * The SQL of Postgres-fenced consumer offsets: a service's offsets table (its own migration,
 * `(group_id text, topic text, partition int, next_offset bigint, epoch bigint, updated_at timestamptz,
 * PRIMARY KEY (group_id, topic, partition))`), written in the same transaction as the state the
 * messages produce. A partition is owned under an epoch; every write checks it, so a former owner
 * that has not noticed a rebalance can never write after the new owner took over.
 */
export interface ConsumerOffsetsTable {
  table: string;
  groupId: string;
  topic: string;
}

/** A partition's stored position and the epoch that owns it. */
export interface StoredClaim {
  partition: number;
  epoch: number;
  /** The next offset to apply (-1: nothing applied yet). */
  nextOffset: bigint;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The table's statements (the hot ones prepared: each connection parses and plans them once). */
export function consumerOffsets({ table, groupId, topic }: ConsumerOffsetsTable) {
  if (!IDENTIFIER.test(table)) throw new Error(`offsets table name ${table} is not a plain identifier`);
  const holdText = `SELECT epoch::text FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = $3 FOR UPDATE`;
  const moveText = `UPDATE ${table} AS o SET next_offset = m.next_offset, updated_at = now()
      FROM unnest($3::int[], $4::bigint[], $5::bigint[], $6::bigint[]) AS m(partition, next_offset, epoch, stored)
     WHERE o.group_id = $1 AND o.topic = $2 AND o.partition = m.partition AND o.epoch = m.epoch AND o.next_offset = m.stored`;
  return {
    /** Takes the partition over: a new epoch fences every earlier owner out. */
    async claim(tx: Queryable, partition: number): Promise<StoredClaim> {
      const { rows } = await tx.query<{ next_offset: string; epoch: string }>(
        `INSERT INTO ${table} AS o (group_id, topic, partition, next_offset, epoch, updated_at) VALUES ($1, $2, $3, -1, 1, now())
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET epoch = o.epoch + 1, updated_at = now()
         RETURNING next_offset::text, epoch::text`,
        [groupId, topic, partition],
      );
      return { partition, epoch: Number(rows[0]!.epoch), nextOffset: BigInt(rows[0]!.next_offset) };
    },

    /** Locks the partition's row for the transaction; false when another epoch owns it now. */
    async holds(tx: Queryable, claim: StoredClaim): Promise<boolean> {
      const { rows } = await tx.query<{ epoch: string }>(prepared(holdText, [groupId, topic, claim.partition]));
      return rows[0] !== undefined && Number(rows[0].epoch) === claim.epoch;
    },

    /**
     * Each claim's offset moved to its `nextOffset`, only under its epoch and only from the offset it
     * last stored; answers how many moved (a row each claim that holds, then locked for the
     * transaction; none for a claim another instance took or whose earlier commit went through unseen).
     */
    async move(tx: Queryable, moves: readonly { claim: StoredClaim; nextOffset: bigint }[]): Promise<number> {
      const result: pg.QueryResult = await tx.query(
        prepared(moveText, [
          groupId,
          topic,
          moves.map((m) => m.claim.partition),
          moves.map((m) => m.nextOffset.toString()),
          moves.map((m) => m.claim.epoch),
          moves.map((m) => m.claim.nextOffset.toString()),
        ]),
      );
      return result.rowCount ?? 0;
    },
  };
}

export type ConsumerOffsets = ReturnType<typeof consumerOffsets>;
