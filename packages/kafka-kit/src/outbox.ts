import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { BatchingProducer } from './batching-producer.ts';

/** A message born of state: written with the state, sent after the commit. */
export interface OutboxMessage {
  topic: string;
  key: string;
  value: string;
  headers?: Record<string, string>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Outbox rows of a service (its own migration):
 * `(id bigserial PRIMARY KEY, source_partition int, topic text, key text, value text, headers jsonb)`.
 * `source_partition` is the consumed partition whose state made the message:
 * only the instance that owns it relays it, so a project's messages leave in
 * the order they were written.
 */
export async function writeOutbox(tx: PoolClient, table: string, sourcePartition: number, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  if (!IDENTIFIER.test(table)) throw new Error(`outbox table name ${table} is not a plain identifier`);
  await tx.query(
    `INSERT INTO ${table} (source_partition, topic, key, value, headers)
     SELECT $1, t, k, v, h FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS m(t, k, v, h, n) ORDER BY n`,
    [sourcePartition, messages.map((m) => m.topic), messages.map((m) => m.key), messages.map((m) => m.value), messages.map((m) => JSON.stringify(m.headers ?? {}))],
  );
}

export interface OutboxRelayOptions {
  pool: Pool;
  table: string;
  producer: BatchingProducer;
  logger: Logger;
  /** The source partitions this instance owns now. */
  partitions: () => number[];
  /** A sweep for rows nobody announced (a crashed owner's): this often. */
  sweepIntervalMs?: number;
  batchSize?: number;
  onRelayed?: (messages: number) => void;
}

/**
 * Sends outbox rows in id order and deletes them once Kafka acknowledged
 * them. `notify()` after each commit sends at once; a periodic sweep picks up
 * what an earlier owner left. At least once: a crash between the send and the
 * delete sends those rows again, so every message carries what lets a reader
 * drop a duplicate (a tile change's position).
 */
export class OutboxRelay {
  private readonly table: string;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: OutboxRelayOptions) {
    if (!IDENTIFIER.test(options.table)) throw new Error(`outbox table name ${options.table} is not a plain identifier`);
    this.table = options.table;
  }

  start(): void {
    const sweep = () => {
      if (this.stopped) return;
      this.notify();
      this.timer = setTimeout(sweep, this.options.sweepIntervalMs ?? 1000);
      this.timer.unref();
    };
    sweep();
  }

  /** Sends what is waiting now; coalesces calls that arrive while a send is under way. */
  notify(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.logger.warn({ event: 'outbox_relay_failed', table: this.table, err: error }))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.notify();
        }
      });
  }

  private async drain(): Promise<void> {
    const limit = this.options.batchSize ?? 1000;
    for (;;) {
      const partitions = this.options.partitions();
      if (partitions.length === 0 || this.stopped) return;
      const { rows } = await this.options.pool.query<{ id: string; topic: string; key: string; value: string; headers: Record<string, string> }>(
        `SELECT id::text, topic, key, value, headers FROM ${this.table} WHERE source_partition = ANY($1::int[]) ORDER BY id LIMIT $2`,
        [partitions, limit],
      );
      if (rows.length === 0) return;
      // In id order, one topic run at a time, so each key's messages keep their order.
      let start = 0;
      while (start < rows.length) {
        let end = start + 1;
        while (end < rows.length && rows[end]!.topic === rows[start]!.topic) end++;
        const run = rows.slice(start, end);
        await this.options.producer.sendMany(run[0]!.topic, run.map((r) => ({ key: r.key, value: r.value, headers: r.headers })));
        start = end;
      }
      await this.options.pool.query(`DELETE FROM ${this.table} WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      this.options.onRelayed?.(rows.length);
      if (rows.length < limit) return;
    }
  }

  /** Sends everything waiting now, once. */
  async flush(): Promise<void> {
    await this.running;
    await this.drain();
  }

  /** Stops the sweep and waits for the send under way. Safe to call twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }
}
