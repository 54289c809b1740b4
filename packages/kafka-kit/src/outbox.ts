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

function identifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`${what} name ${name} is not a plain identifier`);
  return name;
}

/**
 * Outbox rows of a service (its own migration):
 * `(id bigserial PRIMARY KEY, source_partition int, topic text, key text, value text, headers jsonb)`.
 * `source_partition` is the consumed partition whose state made the message:
 * only the instance that owns it relays it, so a project's messages leave in
 * the order they were written.
 */
export async function writeOutbox(tx: PoolClient, table: string, sourcePartition: number, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  identifier(table, 'outbox table');
  await tx.query(
    `INSERT INTO ${table} (source_partition, topic, key, value, headers)
     SELECT $1, t, k, v, h FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS m(t, k, v, h, n) ORDER BY n`,
    [sourcePartition, messages.map((m) => m.topic), messages.map((m) => m.key), messages.map((m) => m.value), messages.map((m) => JSON.stringify(m.headers ?? {}))],
  );
}

/** Messages read for relaying, and how to mark them sent once Kafka acknowledged them. */
export interface RelayBatch {
  messages: OutboxMessage[];
  acknowledge(): Promise<void>;
}

/** Where a relay reads: in write order per source partition, at most `limit` at a time. */
export interface RelaySource {
  next(partitions: number[], limit: number): Promise<RelayBatch | undefined>;
}

/** An outbox table (see `writeOutbox`): rows are deleted once sent. */
export function outboxSource(pool: Pool, table: string): RelaySource {
  identifier(table, 'outbox table');
  return {
    async next(partitions, limit) {
      // Ordered by the bigint column: an `id::text` output column of the same name would sort as text ('100000' < '99999').
      const { rows } = await pool.query<{ position: string; topic: string; key: string; value: string; headers: Record<string, string> }>(
        `SELECT o.id::text AS position, o.topic, o.key, o.value, o.headers FROM ${table} o WHERE o.source_partition = ANY($1::int[]) ORDER BY o.id LIMIT $2`,
        [partitions, limit],
      );
      if (rows.length === 0) return undefined;
      return {
        messages: rows.map((r) => ({ topic: r.topic, key: r.key, value: r.value, headers: r.headers })),
        acknowledge: async () => void (await pool.query(`DELETE FROM ${table} WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.position)])),
      };
    },
  };
}

/** A row of a log the service keeps anyway (e.g. a history), with the message it stands for. */
export interface LogEntry {
  /** The relay stream (see `claimLogStream`) the row was written for. */
  stream: number;
  position: number;
  message: OutboxMessage;
}

/** Where a consumed partition's log rows are relayed from: its stream id goes into each row, its position is the last one sent. */
export interface LogStreamKey {
  groupId: string;
  topic: string;
  partition: number;
}

export interface LogSourceOptions {
  pool: Pool;
  /**
   * `(stream serial PRIMARY KEY, group_id text, topic text, partition int, position bigint, UNIQUE (group_id, topic, partition))`:
   * one stream per consumed partition, so several groups (or installations sharing a database) never relay each other's rows.
   */
  cursorsTable: string;
  groupId: string;
  topic: string;
  /**
   * The entries of each stream after its position, in position order, at most
   * `limit`. A stream's positions must become visible in increasing order
   * (written by one owner at a time, one transaction after the other).
   */
  read(after: { stream: number; position: number }[], limit: number): Promise<LogEntry[]>;
}

/**
 * A log table relayed by a cursor per consumed partition instead of an outbox
 * copy of each row: the message is written once (as the log row), not twice
 * and deleted. A partition without a stream is not relayed: its owner creates
 * the stream when it claims the partition (`claimLogStream`).
 */
export function logSource(options: LogSourceOptions): RelaySource {
  const table = identifier(options.cursorsTable, 'cursors table');
  return {
    async next(partitions, limit) {
      const { rows } = await options.pool.query<{ stream: number; position: string }>(
        `SELECT stream, position::text FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = ANY($3::int[])`,
        [options.groupId, options.topic, partitions],
      );
      if (rows.length === 0) return undefined;
      const entries = await options.read(rows.map((r) => ({ stream: r.stream, position: Number(r.position) })), limit);
      if (entries.length === 0) return undefined;
      const last = new Map<number, number>();
      for (const e of entries) last.set(e.stream, Math.max(last.get(e.stream) ?? 0, e.position));
      return {
        messages: entries.map((e) => e.message),
        // greatest(): a former owner still relaying the same rows must not move a cursor back.
        acknowledge: async () =>
          void (await options.pool.query(
            `UPDATE ${table} AS c SET position = greatest(c.position, a.position) FROM unnest($1::int[], $2::bigint[]) AS a(stream, position) WHERE c.stream = a.stream`,
            [[...last.keys()], [...last.values()]],
          )),
      };
    },
  };
}

/**
 * In the transaction that claims a partition: its stream id, created at
 * `position` (the log's end) the first time, kept as it is afterwards.
 */
export async function claimLogStream(tx: PoolClient, cursorsTable: string, key: LogStreamKey, position: number): Promise<number> {
  const table = identifier(cursorsTable, 'cursors table');
  await tx.query(`INSERT INTO ${table} (group_id, topic, partition, position) VALUES ($1, $2, $3, $4) ON CONFLICT (group_id, topic, partition) DO NOTHING`, [
    key.groupId,
    key.topic,
    key.partition,
    position,
  ]);
  const { rows } = await tx.query<{ stream: number }>(`SELECT stream FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = $3`, [key.groupId, key.topic, key.partition]);
  return rows[0]!.stream;
}

export interface OutboxRelayOptions {
  producer: BatchingProducer;
  logger: Logger;
  sources: RelaySource[];
  /** The source partitions this instance owns now. */
  partitions: () => number[];
  /** A sweep for rows nobody announced (a crashed owner's): this often. */
  sweepIntervalMs?: number;
  batchSize?: number;
  /** After each round of a source: messages sent, and seconds from its read to its acknowledgement. */
  onRelayed?: (messages: number, seconds: number) => void;
}

/**
 * Sends what its sources hold, in order, and marks it sent once Kafka
 * acknowledged it. `notify()` after each commit sends at once; a periodic
 * sweep picks up what an earlier owner left. One drain at a time, so a
 * partition's messages never overtake each other. At least once: a crash
 * between the send and the acknowledgement sends those messages again, so
 * every message carries what lets a reader drop a duplicate (a tile change's
 * position).
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: OutboxRelayOptions) {}

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
    void this.drainOnce();
  }

  /** The one drain under way, or a new one; a call during a drain asks for one more after it. */
  private drainOnce(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.logger.warn({ event: 'outbox_relay_failed', err: error }))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.drainOnce();
        }
      });
    return this.running;
  }

  /** The sources side by side (they hold different messages; each keeps its own order), each drained in order. */
  private async drain(): Promise<void> {
    await Promise.all(this.options.sources.map((source) => this.drainSource(source)));
  }

  private async drainSource(source: RelaySource): Promise<void> {
    const limit = this.options.batchSize ?? 1000;
    for (;;) {
      const partitions = this.options.partitions();
      if (partitions.length === 0) return;
      const started = performance.now();
      const batch = await source.next(partitions, limit);
      if (batch === undefined) return;
      await this.send(batch.messages);
      await batch.acknowledge();
      this.options.onRelayed?.(batch.messages.length, (performance.now() - started) / 1000);
      if (batch.messages.length < limit) return;
    }
  }

  /** In order, one topic run at a time, so each key's messages keep their order. */
  private async send(messages: OutboxMessage[]): Promise<void> {
    let start = 0;
    while (start < messages.length) {
      let end = start + 1;
      while (end < messages.length && messages[end]!.topic === messages[start]!.topic) end++;
      const run = messages.slice(start, end);
      await this.options.producer.sendMany(run[0]!.topic, run.map((m) => ({ key: m.key, value: m.value, headers: m.headers })));
      start = end;
    }
  }

  /** Sends everything waiting now (after the drain under way), through the same one-at-a-time path. */
  async flush(): Promise<void> {
    await this.running;
    await this.drainOnce();
  }

  /** Stops the sweep and waits for the send under way. Safe to call twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }
}
