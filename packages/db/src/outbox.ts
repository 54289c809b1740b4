import type { OutboxMessage, RelaySource } from '@pulseboard/contracts';
import type { Pool, PoolClient } from 'pg';
import { prepared } from './prepared.ts';
import { forgetLeft, identifier } from './relay-internal.ts';

/**
 * Outbox rows of a service (its own migration):
 * `(id bigserial PRIMARY KEY, source_partition int, topic text, key text, value text, headers jsonb)`.
 * `source_partition` is the consumed partition whose state made the message:
 * only the instance that owns it relays it, so a project's messages leave in
 * the order they were written.
 */
export async function writeOutbox(
  tx: PoolClient,
  table: string,
  sourcePartition: number | readonly number[],
  messages: readonly OutboxMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  identifier(table, 'outbox table');
  // One partition for all, or one per message (a shared transaction writes several partitions' rows at once).
  const partitions = typeof sourcePartition === 'number' ? messages.map(() => sourcePartition) : sourcePartition;
  if (partitions.length !== messages.length) throw new Error(`${partitions.length} source partitions for ${messages.length} outbox messages`);
  await tx.query(
    prepared(
      `INSERT INTO ${table} (source_partition, topic, key, value, headers)
       SELECT p, t, k, v, h FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS m(p, t, k, v, h, n) ORDER BY n`,
      [
        partitions,
        messages.map((m) => m.topic),
        messages.map((m) => m.key),
        messages.map((m) => m.value),
        messages.map((m) => JSON.stringify(m.headers ?? {})),
      ],
    ),
  );
}

/**
 * An outbox table (see `writeOutbox`): rows are deleted once sent. With
 * `topics`, only rows bound for those topics are relayed: instances configured
 * with other topics (a test's own, or one whose broker is unreachable) may
 * share the table, and a row for a topic this producer cannot reach would hold
 * back the rest of its produce request.
 */
export function outboxSource(pool: Pool, table: string, options: { topics?: readonly string[] } = {}): RelaySource {
  identifier(table, 'outbox table');
  /** Per source partition, the last id handed out (sent, or being sent); its rows may not be deleted yet. */
  const handedOut = new Map<number, number>();
  return {
    async next(partitions, limit) {
      forgetLeft(handedOut, partitions);
      // Ordered by the bigint column: an `id::text` output column of the same name would sort as text ('100000' < '99999').
      // Per partition, because ids are drawn before commit: another partition's later id may commit first.
      const { rows } = await pool.query<{
        position: string;
        source_partition: number;
        topic: string;
        key: string;
        value: string;
        headers: Record<string, string>;
      }>(
        prepared(
          `SELECT o.id::text AS position, o.source_partition, o.topic, o.key, o.value, o.headers
             FROM unnest($1::int[], $2::bigint[]) AS p(source_partition, after)
             CROSS JOIN LATERAL (SELECT * FROM ${table} o WHERE o.source_partition = p.source_partition AND o.id > p.after AND ($4::text[] IS NULL OR o.topic = ANY($4::text[])) ORDER BY o.id LIMIT $3) o
            ORDER BY o.id LIMIT $3`,
          [partitions, partitions.map((p) => handedOut.get(p) ?? 0), limit, options.topics ?? null],
        ),
      );
      if (rows.length === 0) return undefined;
      for (const r of rows) handedOut.set(r.source_partition, Math.max(handedOut.get(r.source_partition) ?? 0, Number(r.position)));
      return {
        messages: rows.map((r) => ({ topic: r.topic, key: r.key, value: r.value, headers: r.headers })),
        acknowledge: async () => void (await pool.query(prepared(`DELETE FROM ${table} WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.position)]))),
      };
    },
    forget: () => handedOut.clear(),
  };
}
