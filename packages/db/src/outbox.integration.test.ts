import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { TEST_DATABASE_URL, readTopic, testKafka, testTopicPrefix, uniqueName, waitFor } from '@pulseboard/test-kit';
import type { RelaySource } from '@pulseboard/contracts';
import { BatchingProducer, OutboxRelay, ensureTopics } from '@pulseboard/kafka-kit';
import { outboxSource, writeOutbox } from './outbox.ts';
import { claimLogStream, logSource, type LogEntry } from './relay-cursors.ts';

const logger = pino({ level: process.env.KIT_TEST_LOG ?? 'silent' });

describe('outbox relay: an outbox table and a log relayed by cursor', () => {
  const kafka = testKafka();
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 6 });
  const suffix = uniqueName('kit').replace(/-/g, '_');
  const outbox = `kit_outbox_${suffix}`;
  const log = `kit_log_${suffix}`;
  const cursors = `kit_cursors_${suffix}`;
  const producer = new BatchingProducer({ kafka, logger, lingerMs: 0 });
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    await pool.query(
      `CREATE TABLE ${outbox} (id bigserial PRIMARY KEY, source_partition int NOT NULL, topic text NOT NULL, key text NOT NULL, value text NOT NULL, headers jsonb NOT NULL)`,
    );
    await pool.query(`CREATE TABLE ${log} (id bigserial PRIMARY KEY, stream int NOT NULL, key text NOT NULL, value text NOT NULL)`);
    await pool.query(
      `CREATE TABLE ${cursors} (stream serial PRIMARY KEY, group_id text NOT NULL, topic text NOT NULL, partition int NOT NULL, position bigint NOT NULL, UNIQUE (group_id, topic, partition))`,
    );
    // Ids that cross from two to three digits: order by id must be numeric (as text, '100' < '99').
    await pool.query(`SELECT setval(pg_get_serial_sequence('${outbox}', 'id'), 90), setval(pg_get_serial_sequence('${log}', 'id'), 90)`);
    producer.start();
  });
  afterAll(async () => {
    await Promise.all(relays.map((r) => r.stop()));
    await producer.stop();
    await pool.query(`DROP TABLE IF EXISTS ${outbox}, ${log}, ${cursors}`);
    await pool.end();
  });

  async function newTopic(): Promise<string> {
    const topic = `${testTopicPrefix()}${uniqueName('relay')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    return topic;
  }

  /** The log of consumer group `group`, relayed to `topic`; `onRead` sees each read's result before the source does. */
  const logSourceFor = (
    topic: string,
    group = 'g',
    more: { markIntervalMs?: number; offers?: boolean; onRead?: (entries: LogEntry[]) => Promise<void> } = {},
  ) =>
    logSource({
      pool,
      cursorsTable: cursors,
      groupId: group,
      topic: 'events',
      ...(more.markIntervalMs !== undefined ? { markIntervalMs: more.markIntervalMs } : {}),
      ...(more.offers !== undefined ? { offers: more.offers } : {}),
      async read(after, limit) {
        const { rows } = await pool.query<{ id: string; stream: number; key: string; value: string }>(
          `SELECT l.id::text, l.stream, l.key, l.value FROM unnest($1::int[], $2::bigint[]) AS c(stream, after)
           CROSS JOIN LATERAL (SELECT * FROM ${log} l WHERE l.stream = c.stream AND l.id > c.after ORDER BY l.id LIMIT $3) l ORDER BY l.id LIMIT $3`,
          [after.map((a) => a.stream), after.map((a) => a.position), limit],
        );
        const entries = rows.map((r) => ({ stream: r.stream, position: Number(r.id), message: { topic, key: r.key, value: r.value } }));
        await more.onRead?.(entries);
        return entries;
      },
    });

  const claim = async (partition: number, position: number, group = 'g') => {
    const tx = await pool.connect();
    try {
      return await claimLogStream(tx, cursors, { groupId: group, topic: 'events', partition }, position);
    } finally {
      tx.release();
    }
  };

  /** Appends (committed at once) and returns the entries written, as their writer would offer them. */
  async function appendLog(stream: number, values: string[], topic = ''): Promise<LogEntry[]> {
    const { rows } = await pool.query<{ id: string; value: string }>(
      `INSERT INTO ${log} (stream, key, value) SELECT $1, 'k', v FROM unnest($2::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n RETURNING id::text, value`,
      [stream, values],
    );
    return rows.map((r) => ({ stream, position: Number(r.id), message: { topic, key: 'k', value: r.value } })).sort((a, b) => a.position - b.position);
  }

  it('sends outbox rows and log rows of the owned partitions in write order, once each, and leaves the others', async () => {
    const topic = await newTopic();
    const tx = await pool.connect();
    await tx.query('BEGIN');
    await writeOutbox(
      tx,
      outbox,
      0,
      Array.from({ length: 25 }, (_, i) => ({ topic, key: 'o', value: `o${i}`, headers: { h: 'v' } })),
    );
    await writeOutbox(tx, outbox, 9, [{ topic, key: 'o', value: 'not mine' }]);
    await tx.query('COMMIT');
    tx.release();
    const mine = await claim(0, 0);
    await appendLog(
      mine,
      Array.from({ length: 25 }, (_, i) => `l${i}`),
    );
    await appendLog(await claim(9, 0), ['another partition']);
    // Another consumer group's partition 0 (another service, or tests sharing a database): not this relay's.
    await appendLog(await claim(0, 0, 'other group'), ['another group']);

    // A batch size of 10: several rounds, and a flush racing the notifications must not send anything twice.
    const relay = new OutboxRelay({ producer, logger, sources: [outboxSource(pool, outbox), logSourceFor(topic)], partitions: () => [0], batchSize: 10 });
    relays.push(relay);
    relay.notify();
    relay.notify();
    await relay.flush();
    await waitFor(async () => (await readTopic(topic)).length >= 50, { what: 'every row on the topic' });
    await relay.flush();
    const messages = await readTopic(topic);
    expect(messages.filter((m) => m.key === 'o').map((m) => m.value)).toEqual(Array.from({ length: 25 }, (_, i) => `o${i}`));
    expect(messages.filter((m) => m.key === 'o')[0]!.headers).toEqual({ h: 'v' });
    expect(messages.filter((m) => m.key === 'k').map((m) => m.value)).toEqual(Array.from({ length: 25 }, (_, i) => `l${i}`));
    // Outbox rows are deleted once sent; the log stays and its cursor moved to its end.
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${outbox} WHERE source_partition = 0`)).rows[0].n).toBe(0);
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${outbox} WHERE source_partition = 9`)).rows[0].n).toBe(1);
    const last = (await pool.query(`SELECT max(id)::int AS id FROM ${log} WHERE stream = $1`, [mine])).rows[0].id;
    expect((await pool.query(`SELECT position::int FROM ${cursors} WHERE stream = $1`, [mine])).rows[0].position).toBe(last);

    // What is written later goes out after it; nothing earlier goes again.
    await appendLog(mine, ['later']);
    relay.notify();
    await waitFor(async () => (await readTopic(topic)).length === 51, { what: 'the later row' });
    await relay.flush();
    expect((await readTopic(topic)).map((m) => m.value).at(-1)).toBe('later');
    expect(await readTopic(topic)).toHaveLength(51);
  });

  it('a wake-up that names a source reads only that one; the sweep and a flush read them all', async () => {
    const topic = await newTopic();
    const stream = await claim(3, 0, 'named');
    const reads = { outbox: 0, log: 0 };
    const counted = (source: RelaySource, which: keyof typeof reads): RelaySource => ({
      next: (partitions, limit) => (reads[which]++, source.next(partitions, limit)),
      forget: () => source.forget(),
    });
    const fromOutbox = counted(outboxSource(pool, outbox), 'outbox');
    const fromLog = counted(logSourceFor(topic, 'named'), 'log');
    // An hour's sweep: only the wake-ups below read.
    const relay = new OutboxRelay({ producer, logger, sources: [fromOutbox, fromLog], partitions: () => [3], sweepIntervalMs: 3_600_000 });
    relays.push(relay);
    await appendLog(stream, ['log only']);
    relay.notify([fromLog]);
    await waitFor(async () => (await readTopic(topic)).length === 1, { what: 'the log row' });
    await relay.flush();
    expect(reads.outbox).toBe(1); // the flush's
    const tx = await pool.connect();
    await tx.query('BEGIN');
    await writeOutbox(tx, outbox, 3, [{ topic, key: 'o', value: 'outbox only' }]);
    await tx.query('COMMIT');
    tx.release();
    const before = { ...reads };
    relay.notify([fromOutbox]);
    await waitFor(async () => (await readTopic(topic)).length === 2, { what: 'the outbox row' });
    await waitFor(() => reads.outbox > before.outbox, { what: 'the outbox read' });
    expect(reads.log).toBe(before.log);
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['log only', 'outbox only']);
  });

  it('a partition claimed for the first time starts at the position its claim gives; a cursor never moves back', async () => {
    const topic = await newTopic();
    const head = (await pool.query(`SELECT max(id)::int AS id FROM ${log}`)).rows[0].id as number;
    const stream = await claim(3, head);
    expect(await claim(3, 0)).toBe(stream); // a second claim keeps the stream and its cursor
    await appendLog(stream, ['after the claim']);
    const stale = await logSourceFor(topic).next([3], 100); // what a former owner (another process) read and is still sending
    const relay = new OutboxRelay({ producer, logger, sources: [logSourceFor(topic)], partitions: () => [3] });
    relays.push(relay);
    await relay.flush();
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['after the claim']);
    await appendLog(stream, ['newest']);
    await relay.flush();
    // The former owner's acknowledgement of an older position does not move the cursor back: nothing goes twice.
    await stale!.acknowledge();
    await relay.flush();
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['after the claim', 'newest']);
  });

  /** The outbox source with its marks held until `release()`, and failing the first `failures` times. */
  function heldMarks(failures = 0) {
    const inner = outboxSource(pool, outbox);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let marks = 0;
    const source: RelaySource = {
      forget: () => inner.forget(),
      async next(partitions, limit) {
        const batch = await inner.next(partitions, limit);
        if (batch === undefined) return undefined;
        return {
          messages: batch.messages,
          acknowledge: async () => {
            await gate;
            if (marks++ < failures) throw new Error('mark failed');
            await batch.acknowledge();
          },
        };
      },
    };
    return { source, release };
  }

  async function writeRows(partition: number, topic: string, values: string[]): Promise<void> {
    const tx = await pool.connect();
    await tx.query('BEGIN');
    await writeOutbox(
      tx,
      outbox,
      partition,
      values.map((value) => ({ topic, key: 'o', value })),
    );
    await tx.query('COMMIT');
    tx.release();
  }

  it('sends the next round while the last one is still being marked sent, and sends nothing twice', async () => {
    const topic = await newTopic();
    const { source, release } = heldMarks();
    const relay = new OutboxRelay({ producer, logger, sources: [source], partitions: () => [5] });
    relays.push(relay);
    await writeRows(5, topic, ['a', 'b']);
    relay.notify();
    await waitFor(async () => (await readTopic(topic)).length === 2, { what: 'the first round' });
    await writeRows(5, topic, ['c']);
    relay.notify();
    // The first round's rows are not deleted yet: the second round reads after them, not from them.
    await waitFor(async () => (await readTopic(topic)).length === 3, { what: 'the second round before the first mark' });
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${outbox} WHERE source_partition = 5`)).rows[0].n).toBe(3);
    release();
    await relay.flush();
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['a', 'b', 'c']);
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${outbox} WHERE source_partition = 5`)).rows[0].n).toBe(0);
  });

  it('a mark that fails sends the rows again rather than leave them behind', async () => {
    const topic = await newTopic();
    const { source, release } = heldMarks(1);
    const relay = new OutboxRelay({ producer, logger, sources: [source], partitions: () => [6] });
    relays.push(relay);
    await writeRows(6, topic, ['x', 'y']);
    release();
    relay.notify();
    await waitFor(async () => (await pool.query(`SELECT count(*)::int AS n FROM ${outbox} WHERE source_partition = 6`)).rows[0].n === 0, {
      what: 'the rows marked sent',
    });
    await relay.flush();
    // At least once: the unmarked rows went again, in order.
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['x', 'y', 'x', 'y']);
  });

  const lazy = (entries: LogEntry[]) => entries.map((e) => ({ stream: e.stream, position: e.position, message: () => e.message }));
  const cursorOf = async (stream: number) => Number((await pool.query(`SELECT position FROM ${cursors} WHERE stream = $1`, [stream])).rows[0].position);

  it("once a read reached a stream's end, what its writer offers after each commit is sent without reading; marks are held back until the interval or a flush", async () => {
    const topic = await newTopic();
    const stream = await claim(7, 0, 'memory');
    let reads = 0;
    const source = logSourceFor(topic, 'memory', { offers: true, markIntervalMs: 3_600_000, onRead: async () => void reads++ });
    const relay = new OutboxRelay({ producer, logger, sources: [source], partitions: () => [7], sweepIntervalMs: 3_600_000 });
    relays.push(relay);
    const first = await appendLog(stream, ['r1', 'r2'], topic);
    relay.notify([source]);
    await waitFor(async () => (await readTopic(topic)).length === 2, { what: 'the rows read' });
    await waitFor(async () => (await cursorOf(stream)) === first[1]!.position, { what: 'the first mark (none written yet: at once)' });
    expect(reads).toBe(1);

    const offered: LogEntry[] = [];
    for (let i = 0; i < 5; i++) {
      const entries = await appendLog(stream, [`m${i}`], topic);
      offered.push(...entries);
      source.offer(lazy(entries));
      relay.notify([source]);
    }
    await waitFor(async () => (await readTopic(topic)).length === 7, { what: 'the offered rows' });
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['r1', 'r2', 'm0', 'm1', 'm2', 'm3', 'm4']);
    expect(reads).toBe(1); // not one read per commit
    expect(await cursorOf(stream)).toBe(first[1]!.position); // held back: an hour's interval
    await relay.flush();
    expect(await cursorOf(stream)).toBe(offered.at(-1)!.position);

    // forget() (a send failed, or a partition was claimed again) reads from the written mark: nothing lost, nothing doubled here.
    source.forget();
    const after = await appendLog(stream, ['after forget'], topic);
    relay.notify([source]);
    await waitFor(async () => (await readTopic(topic)).length === 8, { what: 'the row after forget' });
    expect(reads).toBe(2);
    await relay.stop();
    expect(await cursorOf(stream)).toBe(after[0]!.position); // stop() writes the held-back mark
    expect((await readTopic(topic)).map((m) => m.value).at(-1)).toBe('after forget');
  });

  it("the commits announced one after the other (a shared transaction's partitions) leave in one produce request", async () => {
    const topic = await newTopic();
    const streams = [await claim(10, 0, 'turn'), await claim(11, 0, 'turn')];
    const requests: number[] = [];
    const counting = new BatchingProducer({ kafka, logger, lingerMs: 0, onProduceRequest: (messages) => requests.push(messages) });
    counting.start();
    try {
      const source = logSourceFor(topic, 'turn', { offers: true });
      const relay = new OutboxRelay({ producer: counting, logger, sources: [source], partitions: () => [10, 11], sweepIntervalMs: 3_600_000 });
      relays.push(relay);
      // A first read reaches both streams' ends: from here on the relay takes commits from memory.
      await relay.flush();
      requests.length = 0;
      const written = [await appendLog(streams[0]!, ['p10'], topic), await appendLog(streams[1]!, ['p11'], topic)];
      // As the state consumer's commit does: each partition of the transaction offers its rows and notifies, one after the other.
      for (const entries of written) {
        source.offer(lazy(entries));
        relay.notify([source]);
      }
      await waitFor(async () => (await readTopic(topic)).length === 2, { what: "both partitions' rows" });
      await relay.flush();
      expect((await readTopic(topic)).map((m) => m.value)).toEqual(['p10', 'p11']);
      expect(requests).toEqual([2]);
    } finally {
      await counting.stop();
    }
  });

  it('a row committed while a read is under way is sent once: from memory when the read missed it, not twice when it saw it', async () => {
    const topic = await newTopic();
    const stream = await claim(8, 0, 'race');
    let round = 0;
    const source: ReturnType<typeof logSourceFor> = logSourceFor(topic, 'race', {
      offers: true,
      onRead: async () => {
        round++;
        // After the read's snapshot: a commit it cannot see, offered by its writer.
        if (round === 1) source.offer(lazy(await appendLog(stream, ['missed by the read'], topic)));
      },
    });
    const relay = new OutboxRelay({ producer, logger, sources: [source], partitions: () => [8], sweepIntervalMs: 3_600_000 });
    relays.push(relay);
    // Committed and offered before the read: both the read and memory hold it.
    source.offer(lazy(await appendLog(stream, ['seen by both'], topic)));
    relay.notify([source]);
    await waitFor(async () => (await readTopic(topic)).length >= 2, { what: 'both rows' });
    await relay.flush();
    expect((await readTopic(topic)).map((m) => m.value)).toEqual(['seen by both', 'missed by the read']);
    expect(round).toBe(1);
  });
});
