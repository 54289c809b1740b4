import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { OutboxMessage, RelaySource } from '@pulseboard/contracts';
import { postgresErrorFields } from './pool.ts';
import { prepared } from './prepared.ts';
import { forgetLeft, identifier } from './relay-internal.ts';

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
  /**
   * Marks (cursor positions) are written at most this often, not after every
   * round: a crash or a hand-over sends what the last written mark does not
   * cover again (at least once, as always). 0: after every round.
   */
  markIntervalMs?: number;
  /**
   * The writer offers every commit's entries (`offer`) once it committed:
   * then a stream read to its end is not read again while its owner keeps
   * it. Without it, every round reads (a writer that does not offer).
   */
  offers?: boolean;
  /** Logs a held-back mark that could not be written (it is tried again). */
  logger?: Logger;
}

/** What the source knows of one owned partition's stream. */
interface Cursor {
  stream: number;
  /** The last position handed out. */
  position: number;
  /**
   * Every entry after `position` is in `offered` (a read found the stream's
   * end, and each commit since offered its entries): no read is needed.
   */
  synced: boolean;
}

/** An entry its writer just committed, its message built only if the relay takes it from memory. */
export interface OfferedEntry {
  stream: number;
  position: number;
  message: () => OutboxMessage;
}

/** A source that also takes entries from memory: what its writer just committed (`offer`). */
export interface LogRelaySource extends RelaySource {
  /**
   * Entries of a transaction that committed, in position order: the relay
   * sends them from here instead of reading them back. Call it only after the
   * commit, for every commit that wrote to a stream; entries of streams the
   * source reads anyway are dropped.
   */
  offer(entries: readonly OfferedEntry[]): void;
  flush(): Promise<void>;
}

/** More entries than this held for a stream not yet read to its end: drop them and read them instead. */
const MAX_OFFERED = 10_000;

/**
 * A log table relayed by a cursor per consumed partition instead of an outbox
 * copy of each row: the message is written once (as the log row), not twice
 * and deleted. A partition without a stream is not relayed: its owner creates
 * the stream when it claims the partition (`claimLogStream`).
 *
 * A stream is read from the table until a read reaches its end; after that,
 * what its owner commits comes from memory (`offer`), so a commit costs the
 * relay no read. Offers are kept from the start, whatever the stream's state,
 * so an entry that commits while a read is under way is either in the read or
 * in memory; duplicates between the two are dropped by position.
 */
export function logSource(options: LogSourceOptions): LogRelaySource {
  const table = identifier(options.cursorsTable, 'cursors table');
  const markIntervalMs = options.markIntervalMs ?? 0;
  /** Per owned partition. */
  const cursors = new Map<number, Cursor>();
  /** Per stream, entries offered and not handed out yet, in position order. */
  const offered = new Map<number, OfferedEntry[]>();
  /** Streams whose offers overflowed: a read that began before that cannot tell the source it reached the end. */
  const overflowEpoch = new Map<number, number>();
  /** Per stream, the highest position sent and not yet written as its mark. */
  const unmarked = new Map<number, number>();
  let lastMarkAt = -Infinity;
  let markTimer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const writeMarks = (): Promise<void> => {
    if (markTimer !== undefined) clearTimeout(markTimer);
    markTimer = undefined;
    const write = async (): Promise<void> => {
      if (unmarked.size === 0) return;
      const marks = new Map(unmarked);
      unmarked.clear();
      lastMarkAt = performance.now();
      try {
        // greatest(): a former owner still relaying the same rows must not move a cursor back.
        await options.pool.query(
          prepared(
            `UPDATE ${table} AS c SET position = greatest(c.position, a.position) FROM unnest($1::int[], $2::bigint[]) AS a(stream, position) WHERE c.stream = a.stream`,
            [[...marks.keys()], [...marks.values()]],
          ),
        );
      } catch (error) {
        for (const [stream, position] of marks) unmarked.set(stream, Math.max(unmarked.get(stream) ?? 0, position));
        throw error;
      }
    };
    // One write at a time, in order; a failed one does not stop the next.
    const run = writing.then(write, write);
    writing = run.catch(() => undefined);
    return run;
  };

  const holdMarks = (): void => {
    if (markTimer !== undefined) return;
    markTimer = setTimeout(
      () =>
        void writeMarks().catch((error: unknown) => {
          // Kept, and written with the next round's (or the next timer's): sent twice at worst.
          options.logger?.warn({ event: 'relay_mark_failed', ...postgresErrorFields(error) });
          if (unmarked.size > 0) holdMarks();
        }),
      Math.max(0, markIntervalMs - (performance.now() - lastMarkAt)),
    );
    markTimer.unref();
  };

  /** The offered entries of `cursor`'s stream after its position (and after `after`), at most `room`, their messages built. */
  function takeOffered(cursor: Cursor, after: number, room: number): LogEntry[] {
    const list = offered.get(cursor.stream);
    if (list === undefined) return [];
    const from = Math.max(cursor.position, after);
    const fresh = list.filter((e) => e.position > from);
    const taken = fresh.slice(0, room);
    if (fresh.length > taken.length) offered.set(cursor.stream, fresh.slice(taken.length));
    else offered.delete(cursor.stream);
    return taken.map((e) => ({ stream: e.stream, position: e.position, message: e.message() }));
  }

  /** What a read returned is not needed from memory: the offers it covers go (a stream read in a catch-up keeps few). */
  function dropRead(readTo: Map<number, number>): void {
    for (const [stream, position] of readTo) {
      const list = offered.get(stream);
      if (list === undefined) continue;
      const rest = list.filter((e) => e.position > position);
      if (rest.length > 0) offered.set(stream, rest);
      else offered.delete(stream);
    }
  }

  return {
    offer(entries) {
      if (options.offers !== true) return;
      for (const entry of entries) {
        const list = offered.get(entry.stream);
        if (list === undefined) offered.set(entry.stream, [entry]);
        else if (list.length < MAX_OFFERED) list.push(entry);
        else {
          offered.delete(entry.stream);
          overflowEpoch.set(entry.stream, (overflowEpoch.get(entry.stream) ?? 0) + 1);
          for (const cursor of cursors.values()) if (cursor.stream === entry.stream) cursor.synced = false;
        }
      }
    },

    async next(partitions, limit) {
      forgetLeft(cursors, partitions);
      const unknown = partitions.filter((p) => !cursors.has(p));
      if (unknown.length > 0) {
        const { rows } = await options.pool.query<{ stream: number; partition: number; position: string }>(
          `SELECT stream, partition, position::text FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = ANY($3::int[])`,
          [options.groupId, options.topic, unknown],
        );
        for (const r of rows) if (!cursors.has(r.partition)) cursors.set(r.partition, { stream: r.stream, position: Number(r.position), synced: false });
      }
      const owned = new Set([...cursors.values()].map((c) => c.stream));
      for (const stream of offered.keys()) if (!owned.has(stream)) offered.delete(stream);

      const toRead = [...cursors].filter(([, c]) => !c.synced);
      let entries: LogEntry[] = [];
      const readTo = new Map<number, number>();
      if (toRead.length > 0) {
        const epochs = new Map(toRead.map(([, c]) => [c.stream, overflowEpoch.get(c.stream) ?? 0]));
        entries = await options.read(
          toRead.map(([, c]) => ({ stream: c.stream, position: c.position })),
          limit,
        );
        for (const e of entries) readTo.set(e.stream, Math.max(readTo.get(e.stream) ?? 0, e.position));
        dropRead(readTo);
        // The read reached every stream's end as of its snapshot: whatever committed after it was offered.
        // Not for a cursor forgotten meanwhile, nor a stream whose offers overflowed since the read began.
        if (options.offers === true && entries.length < limit) {
          for (const [partition, cursor] of toRead) {
            if (cursors.get(partition) === cursor && (overflowEpoch.get(cursor.stream) ?? 0) === epochs.get(cursor.stream)) cursor.synced = true;
          }
        }
      }
      for (const cursor of cursors.values()) {
        if (!cursor.synced || entries.length >= limit) continue;
        entries.push(...takeOffered(cursor, readTo.get(cursor.stream) ?? 0, limit - entries.length));
      }
      if (entries.length === 0) return undefined;
      const last = new Map<number, number>();
      for (const e of entries) last.set(e.stream, Math.max(last.get(e.stream) ?? 0, e.position));
      for (const cursor of cursors.values()) cursor.position = Math.max(cursor.position, last.get(cursor.stream) ?? 0);
      return {
        messages: entries.map((e) => e.message),
        acknowledge: async () => {
          for (const [stream, position] of last) unmarked.set(stream, Math.max(unmarked.get(stream) ?? 0, position));
          if (markIntervalMs <= 0 || performance.now() - lastMarkAt >= markIntervalMs) await writeMarks();
          else holdMarks();
        },
      };
    },

    forget() {
      // Read again from the written marks; offers stay (a read that starts now sees everything older).
      cursors.clear();
    },

    flush: () => writeMarks(),
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
  const { rows } = await tx.query<{ stream: number }>(`SELECT stream FROM ${table} WHERE group_id = $1 AND topic = $2 AND partition = $3`, [
    key.groupId,
    key.topic,
    key.partition,
  ]);
  return rows[0]!.stream;
}
