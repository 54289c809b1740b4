import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { readTopic, TEST_DATABASE_URL, TEST_KAFKA_BROKERS, testKafka, testTopicPrefix, topicMessageCount, uniqueName, waitFor } from '@pulseboard/test-kit';
import { createKafka } from '../client.ts';
import { BatchingProducer } from '../batching-producer.ts';
import { ensureTopics } from '../client.ts';
import { OK } from '../outcome.ts';
import { consume, type PostgresConsumeOptions, type StateConsuming } from './consume.ts';
import type { PostgresOffsetsOptions } from './postgres-offsets.ts';

/** What a test varies: the consumer's options, and those of its Postgres offsets (pool, handleAll, onClaim, combining). */
type Overrides = Partial<Omit<PostgresConsumeOptions<string>, 'postgres'>> & Partial<PostgresOffsetsOptions<string>>;

// The consumers' log at info, kept in memory (last 300 lines) and printed only when a wait times out.
const recentLog: string[] = [];
const logger = pino(
  { level: process.env.KIT_TEST_LOG ?? 'info' },
  { write: (line: string) => void (recentLog.push(line.trimEnd()) > 300 && recentLog.shift()) },
);
/** A wait whose timeout tells what the consumers did meanwhile. */
async function waitLogged<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs: number; what: string; state: () => Promise<unknown> },
): Promise<T> {
  try {
    return await waitFor(check, options);
  } catch (error) {
    throw new Error(`${(error as Error).message}; state: ${JSON.stringify(await options.state())}; consumer log:\n${recentLog.slice(-80).join('\n')}`);
  }
}
const decode = (value: Buffer | null) =>
  value === null ? { ok: false as const, code: 'empty_value', message: 'no value' } : { ok: true as const, value: value.toString() };

describe('state-owning consumer (offsets in Postgres, in the state transaction)', () => {
  const kafka = testKafka();
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 6 });
  const suffix = uniqueName('kit').replace(/-/g, '_');
  const offsets = `kit_offsets_${suffix}`;
  const applied = `kit_applied_${suffix}`;
  const running: StateConsuming[] = [];

  beforeAll(async () => {
    await pool.query(
      `CREATE TABLE ${offsets} (group_id text, topic text, partition int, next_offset bigint NOT NULL, epoch bigint NOT NULL, updated_at timestamptz, PRIMARY KEY (group_id, topic, partition))`,
    );
    await pool.query(`CREATE TABLE ${applied} (topic text, "offset" bigint, value text)`);
  });
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
    await pool.query(`DROP TABLE IF EXISTS ${offsets}, ${applied}`);
    await pool.end();
  });

  /** Idempotent, as the gateway's producer: a retried produce request (a fresh topic's leaders settling) writes nothing twice. */
  async function produce(topic: string, messages: { key: string; value: string | null }[]): Promise<void> {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, messages });
    await producer.disconnect();
  }

  async function topicWith(values: (string | null)[], partitions = 1): Promise<string> {
    const topic = `${testTopicPrefix()}${uniqueName('state')}`;
    await ensureTopics(kafka, [{ topic, numPartitions: partitions }]);
    await produce(
      topic,
      values.map((value, i) => ({ key: `k${i % 4}`, value })),
    );
    expect(await topicMessageCount(topic), 'messages on the fresh topic').toBe(values.length);
    return topic;
  }

  const appliedValues = async (topic: string) =>
    (await pool.query(`SELECT value FROM ${applied} WHERE topic = $1 ORDER BY "offset"`, [topic])).rows.map((r) => r.value as string);

  async function start(topic: string, groupId: string, overrides: Overrides = {}): Promise<StateConsuming> {
    const { pool: usedPool, handleAll, onClaim, onRelease, combinePartitions, combineBelowMessages, table, ...consumerOptions } = overrides;
    const consumer = await consume<string>({
      kafka,
      logger,
      group: groupId,
      topic,
      offsets: 'postgres',
      postgres: {
        pool: usedPool ?? pool,
        table: table ?? offsets,
        ...(handleAll === undefined ? {} : { handleAll }),
        ...(onClaim === undefined ? {} : { onClaim }),
        ...(onRelease === undefined ? {} : { onRelease }),
        ...(combinePartitions === undefined ? {} : { combinePartitions }),
        ...(combineBelowMessages === undefined ? {} : { combineBelowMessages }),
      },
      decode,
      sessionTimeoutMs: 6000,
      maxBackoffMs: 200,
      handler: async (messages, { tx }) => {
        for (const m of messages) await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        return { outcomes: messages.map(() => OK) };
      },
      ...consumerOptions,
    });
    running.push(consumer);
    return consumer;
  }

  it('retries a retryable failure until it passes, and drops only the message a non-retryable failure comes from', async () => {
    const topic = await topicWith(['a', 'b', 'poison', 'c', null, 'd']);
    let failures = 0;
    const dropped: string[] = [];
    const consumer = await start(topic, uniqueName('g'), {
      onDrop: ({ offset }, reason) => dropped.push(`${offset}:${reason.split(':')[0]}`),
      handler: async (messages, { tx }) => {
        if (failures < 2) {
          failures++;
          throw Object.assign(new Error('database briefly away'), { retryable: true });
        }
        for (const m of messages) {
          if (m.value === 'poison') throw new Error('a bug this message triggers');
          await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        }
        return { outcomes: messages.map(() => OK) };
      },
    });
    await waitFor(async () => (await appliedValues(topic)).length === 4, { timeoutMs: 20000, what: 'the four good messages applied' });
    expect(await appliedValues(topic)).toEqual(['a', 'b', 'c', 'd']);
    expect(failures).toBe(2);
    expect(dropped.sort()).toEqual(['2:handler_failed', '4:empty_value']);
    await waitFor(async () => Number((await pool.query(`SELECT next_offset FROM ${offsets} WHERE topic = $1`, [topic])).rows[0]?.next_offset) === 6, {
      timeoutMs: 5000,
      what: 'offset stored',
    });
    await consumer.stop();
    await consumer.stop();
  });

  it('never applies a batch again when the connection died during its COMMIT after Postgres had committed it (a restart)', async () => {
    const topic = await topicWith(['a', 'b', 'c']);
    // The first COMMIT of a transaction that applied messages goes through, and then its answer is lost,
    // as when Postgres stops between committing and replying: the consumer sees a retryable failure.
    let cut = false;
    const cutting = {
      query: pool.query.bind(pool),
      connect: async () => {
        const client = await pool.connect();
        let applying = false;
        return new Proxy(client, {
          get(target, property) {
            if (property === 'query') {
              // A statement comes as text or as a config (a named, prepared one).
              return async (statement: string | pg.QueryConfig, values?: unknown[]) => {
                const result = await target.query(statement, values);
                const text = typeof statement === 'string' ? statement : statement.text;
                if (text.startsWith(`INSERT INTO ${applied}`)) applying = true;
                if (text === 'COMMIT' && applying && !cut) {
                  cut = true;
                  throw new Error('Connection terminated unexpectedly');
                }
                return result;
              };
            }
            const value = Reflect.get(target, property) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    } as unknown as pg.Pool;
    const groupId = uniqueName('g');
    const logged = recentLog.length;
    const consumer = await start(topic, groupId, { pool: cutting });
    // The retry finds the offset moved (fenced), claims the partition again and reads the stored offset.
    await waitLogged(
      () => recentLog.slice(logged).filter((line) => line.includes('"event":"partition_claimed"') && line.includes('"next_offset":"3"')).length === 1,
      {
        timeoutMs: 20000,
        what: 'the partition claimed again at the committed offset',
        state: () => appliedValues(topic),
      },
    );
    await consumer.stop();
    expect(cut).toBe(true);
    expect(recentLog.slice(logged).some((line) => line.includes('"event":"partition_fenced"'))).toBe(true);
    expect(await appliedValues(topic)).toEqual(['a', 'b', 'c']);
  });

  it('with a dead-letter target: parks undecodable messages, dead_letter outcomes and the message a bug fails on, before moving past them', async () => {
    const topic = await topicWith(['a', null, 'reject-me', 'poison', 'b']);
    const deadLetters = `${topic}.dlq`;
    await ensureTopics(kafka, [{ topic: deadLetters, numPartitions: 1 }]);
    const producer = new BatchingProducer({ kafka: createKafka({ clientId: 'kit-dlq', brokers: TEST_KAFKA_BROKERS.split(','), logger }), logger, lingerMs: 0 });
    producer.start();
    const group = uniqueName('g');
    const dropped: string[] = [];
    await start(topic, group, {
      deadLetter: {
        producer,
        topic: deadLetters,
        headers: (info) => ({ why: info.code, from: `${info.topic}/${info.partition}/${info.offset}`, group: info.groupId }),
      },
      onDrop: ({ offset }) => dropped.push(offset),
      handler: async (messages, { tx }) => {
        const outcomes = [];
        for (const m of messages) {
          if (m.value === 'poison') throw new Error('a bug this message triggers');
          if (m.value === 'reject-me') {
            outcomes.push({ kind: 'dead_letter' as const, code: 'refused', message: 'not wanted' });
            continue;
          }
          await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
          outcomes.push(OK);
        }
        return { outcomes };
      },
    });
    await waitFor(async () => Number((await pool.query(`SELECT next_offset FROM ${offsets} WHERE topic = $1`, [topic])).rows[0]?.next_offset) === 5, {
      timeoutMs: 20000,
      what: 'offset past the batch',
    });
    expect(await appliedValues(topic)).toEqual(['a', 'b']);
    const letters = await readTopic(deadLetters);
    expect(letters.map((l) => [l.key, l.value, l.headers.why, l.headers.from, l.headers.group]).sort()).toEqual(
      [
        ['k1', '', 'empty_value', `${topic}/0/1`, group], // a null value is parked as empty bytes
        ['k2', 'reject-me', 'refused', `${topic}/0/2`, group],
        ['k3', 'poison', 'handler_failed', `${topic}/0/3`, group],
      ].sort(),
    );
    expect(dropped).toEqual([]);
    await producer.stop();
  });

  it('applies batches fetched while an earlier one is still applying in offset order, each once', async () => {
    const topic = await topicWith([]);
    const seen: number[] = [];
    await start(topic, uniqueName('g'), {
      handler: async (messages, { tx }) => {
        // A slow apply: later batches are fetched (ahead) meanwhile and must wait their turn.
        await new Promise((r) => setTimeout(r, 60));
        for (const m of messages) {
          seen.push(Number(m.offset));
          await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        }
        return { outcomes: messages.map(() => OK) };
      },
    });
    for (let round = 0; round < 10; round++) {
      await produce(
        topic,
        Array.from({ length: 5 }, (_, i) => ({ key: 'k', value: `v${round * 5 + i}` })),
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitFor(async () => (await appliedValues(topic)).length >= 50, { timeoutMs: 20000, what: 'every message applied' });
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await appliedValues(topic)).toEqual(Array.from({ length: 50 }, (_, i) => `v${i}`));
  });

  it('never applies a message twice when Kafka redelivers what Postgres already holds', async () => {
    const topic = await topicWith(['a', 'b', 'c']);
    const group = uniqueName('g');
    const first = await start(topic, group);
    await waitFor(async () => (await appliedValues(topic)).length === 3, { timeoutMs: 20000, what: 'first pass' });
    await first.stop();
    // As after a crash between the Postgres commit and Kafka's: Kafka's offset goes back to the start.
    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '0' }] });
    await admin.disconnect();
    await produce(topic, [{ key: 'k', value: 'd' }]);
    await start(topic, group);
    await waitFor(async () => (await appliedValues(topic)).length >= 4, { timeoutMs: 20000, what: 'the new message' });
    expect(await appliedValues(topic)).toEqual(['a', 'b', 'c', 'd']);
  });

  it("reads again from the stored offset when Kafka's runs ahead of it (the state lost its last commits)", async () => {
    const topic = await topicWith(['a', 'b', 'c', 'd', 'e', 'f']);
    const group = uniqueName('g');
    // The state holds a, b; Kafka was told 5 (as when the database lost commits that were not yet on its disk).
    await pool.query(`INSERT INTO ${offsets} VALUES ($1, $2, 0, 2, 1, now())`, [group, topic]);
    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '5' }] });
    await admin.disconnect();
    await start(topic, group);
    await waitFor(async () => (await appliedValues(topic)).includes('f'), { timeoutMs: 20000, what: 'the last message' });
    expect(await appliedValues(topic)).toEqual(['c', 'd', 'e', 'f']);
  });

  it('fences a former owner: once another instance claimed the partition, the old claim writes nothing', async () => {
    const topic = await topicWith(['a']);
    const group = uniqueName('g');
    const claims: number[] = [];
    const consumer = await start(topic, group, { onClaim: async (_tx, claim) => void claims.push(claim.epoch) });
    await waitFor(async () => (await appliedValues(topic)).length === 1, { timeoutMs: 20000, what: 'first message' });
    // Another instance takes the partition over (a rebalance this one has not noticed yet).
    await pool.query(`UPDATE ${offsets} SET epoch = epoch + 1 WHERE group_id = $1`, [group]);
    expect(await consumer.withClaim(0, async (tx) => void (await tx.query(`INSERT INTO ${applied} VALUES ($1, 99, 'zombie')`, [topic])))).toBe(false);
    expect(consumer.claimedPartitions()).toEqual([]);
    // Kafka still gives this instance the partition, so it claims it again (a new epoch) and goes on.
    await produce(topic, [{ key: 'k', value: 'b' }]);
    await waitFor(async () => (await appliedValues(topic)).length === 2, { timeoutMs: 20000, what: 'second message' });
    expect(await appliedValues(topic)).toEqual(['a', 'b']);
    expect(claims).toEqual([1, 3]);
  });

  it('a batch taken in hand under a claim fenced since writes nothing: the partition is claimed again and the batch applied once', async () => {
    const topic = await topicWith(['a']);
    const group = uniqueName('g');
    const claims: number[] = [];
    await start(topic, group, { onClaim: async (_tx, claim) => void claims.push(claim.epoch) });
    await waitFor(async () => (await appliedValues(topic)).length === 1, { timeoutMs: 20000, what: 'first message' });
    // Another instance takes the partition over; this one learns it only from its next batch's transaction.
    await pool.query(`UPDATE ${offsets} SET epoch = epoch + 1 WHERE group_id = $1`, [group]);
    await produce(topic, [{ key: 'k', value: 'b' }]);
    await waitFor(async () => claims.length === 2 && (await appliedValues(topic)).length >= 2, {
      timeoutMs: 20000,
      what: 'the second message, after claiming again',
    });
    expect(await appliedValues(topic)).toEqual(['a', 'b']);
    expect(claims).toEqual([1, 3]);
    const stored = await pool.query(`SELECT next_offset::int AS next, epoch::int AS epoch FROM ${offsets} WHERE group_id = $1`, [group]);
    expect(stored.rows).toEqual([{ next: 2, epoch: 3 }]);
  });

  it('a second instance in the group takes partitions over on rebalance; together they apply each message once', async () => {
    const values = Array.from({ length: 60 }, (_, i) => `m${i}`);
    const topic = await topicWith(values.slice(0, 30), 4);
    const group = uniqueName('g');
    const a = await start(topic, group);
    let b: StateConsuming | undefined;
    const state = async () => ({ applied: (await appliedValues(topic)).length, a: a.claimedPartitions(), b: b?.claimedPartitions() });
    await waitLogged(async () => (await appliedValues(topic)).length >= 30, { timeoutMs: 45000, what: 'first half', state });
    expect((await appliedValues(topic)).sort()).toEqual(values.slice(0, 30).sort());
    b = await start(topic, group);
    await waitLogged(() => b.claimedPartitions().length > 0 || a.claimedPartitions().length < 4, { timeoutMs: 30000, what: 'a rebalance', state });
    await produce(
      topic,
      values.slice(30).map((value, i) => ({ key: `k${i % 16}`, value })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length >= 60, { timeoutMs: 30000, what: 'second half', state });
    expect((await appliedValues(topic)).sort()).toEqual([...values].sort());
    expect(b.claimedPartitions().length).toBeGreaterThan(0);
  });

  it('gathers for gatherMs while messages flow: messages produced one by one share transactions, each applied once, in order', async () => {
    const topic = await topicWith([]);
    let transactions = 0;
    await start(topic, uniqueName('gather'), {
      gatherMs: 1000,
      handler: async (messages, { tx }) => {
        transactions++;
        for (const m of messages) await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        return { outcomes: messages.map(() => OK) };
      },
    });
    // The first message ends the idle wait at once; the following ones, sent one at a time, come in while the consumer gathers.
    await produce(topic, [{ key: 'k', value: 'first' }]);
    await waitLogged(async () => (await appliedValues(topic)).length === 1, { timeoutMs: 30000, what: 'the first message', state: async () => transactions });
    const values = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // Spaced out (the input's shape, not a wait for a result), so that unpaced each would come alone.
    for (const value of values) {
      await producer.send({ topic, messages: [{ key: 'k', value }] });
      await new Promise((r) => setTimeout(r, 40));
    }
    await producer.disconnect();
    await waitLogged(async () => (await appliedValues(topic)).length === 41, { timeoutMs: 30000, what: 'every message', state: async () => transactions });
    expect(await appliedValues(topic)).toEqual(['first', ...values]);
    // Without pacing about one transaction each (40); paced, the 2 s of sending fill a few.
    expect(transactions).toBeLessThan(12);
  });

  /** The test pool, counting the transactions its clients commit. */
  function countingCommits(): { pool: pg.Pool; commits: () => number } {
    let commits = 0;
    const counting = {
      query: pool.query.bind(pool),
      connect: async () => {
        const client = await pool.connect();
        return new Proxy(client, {
          get(target, property) {
            if (property === 'query')
              return (text: unknown, ...rest: unknown[]) => (text === 'COMMIT' && commits++, (target.query as (...a: unknown[]) => unknown)(text, ...rest));
            const value = Reflect.get(target, property) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        });
      },
    } as unknown as pg.Pool;
    return { pool: counting, commits: () => commits };
  }

  it('applies the batches of one fetch (several partitions) in one transaction, each message once and in order per partition', async () => {
    const topic = await topicWith([], 6);
    const { pool: counted, commits } = countingCommits();
    const handled: number[] = [];
    // The order of application by a sequence: a heap's order is not the order of inserts (pruning reuses space).
    const ordered = `${applied}_ordered`;
    await pool.query(`CREATE TABLE ${ordered} (seq bigserial PRIMARY KEY, partition int NOT NULL, "offset" bigint NOT NULL)`);
    await start(topic, uniqueName('together'), {
      pool: counted,
      gatherMs: 300,
      handler: async (messages, { tx, claim }) => {
        handled.push(claim.partition);
        for (const m of messages) {
          await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, `${claim.partition}:${m.value}`]);
          await tx.query(`INSERT INTO ${ordered} (partition, "offset") VALUES ($1, $2)`, [claim.partition, m.offset]);
        }
        return { outcomes: messages.map(() => OK) };
      },
    });
    // A message on every partition first: each is claimed (a transaction of its own) before the count starts.
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    await produce(
      topic,
      keys.map((key) => ({ key, value: `first-${key}` })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 12, { timeoutMs: 30000, what: 'the first messages', state: async () => commits() });
    const before = { commits: commits(), handled: handled.length };
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // One message at a time over 12 keys (all six partitions), spaced: each fetch finds a few partitions with messages.
    const sent = Array.from({ length: 48 }, (_, i) => ({ key: `key-${i % 12}`, value: `v${i}` }));
    for (const message of sent) {
      await producer.send({ topic, messages: [message] });
      await new Promise((r) => setTimeout(r, 25));
    }
    await producer.disconnect();
    await waitLogged(async () => (await appliedValues(topic)).length === 60, { timeoutMs: 30000, what: 'every message', state: async () => commits() });
    const rows = (await pool.query<{ value: string; offset: string }>(`SELECT value, "offset"::text FROM ${applied} WHERE topic = $1`, [topic])).rows;
    expect(new Set(rows.map((r) => r.value.split(':')[1])).size).toBe(60);
    for (let partition = 0; partition < 6; partition++) {
      const { rows: applying } = await pool.query<{ offset: string }>(`SELECT "offset"::text FROM ${ordered} WHERE partition = $1 ORDER BY seq`, [partition]);
      const mine = applying.map((r) => Number(r.offset));
      expect(mine, `partition ${partition} applied in offset order`).toEqual([...mine].sort((a, b) => a - b));
    }
    await pool.query(`DROP TABLE ${ordered}`);
    const batches = handled.length - before.handled;
    const transactions = commits() - before.commits;
    // One partition's batch per transaction would make them equal.
    expect(batches).toBeGreaterThanOrEqual(6);
    expect(transactions).toBeLessThan(batches / 2);
  });

  it("with handleAll, the shared transaction hands every partition's batch to one call; each offset stored", async () => {
    const topic = await topicWith([], 6);
    const groupId = uniqueName('together-all');
    const calls: number[] = [];
    const insertAll = async (tx: pg.PoolClient, messages: { offset: string; value: string }[]) => {
      await tx.query(`INSERT INTO ${applied} SELECT $1, o, v FROM unnest($2::bigint[], $3::text[]) AS m(o, v)`, [
        topic,
        messages.map((m) => m.offset),
        messages.map((m) => m.value),
      ]);
    };
    await start(topic, groupId, {
      gatherMs: 300,
      handleAll: async (tx, batches) => {
        calls.push(batches.length);
        await insertAll(
          tx,
          batches.flatMap((b) => b.messages),
        );
        return batches.map((b) => ({ outcomes: b.messages.map(() => OK) }));
      },
    });
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    await produce(
      topic,
      keys.map((key) => ({ key, value: `first-${key}` })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 12, { timeoutMs: 30000, what: 'the first messages', state: async () => calls });
    // Every partition claimed now: the next messages, all at once, arrive in one fetch.
    await produce(
      topic,
      keys.map((key) => ({ key, value: `second-${key}` })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 24, { timeoutMs: 30000, what: 'the second messages', state: async () => calls });
    expect(Math.max(...calls)).toBeGreaterThan(1);
    expect((await appliedValues(topic)).sort()).toEqual([...keys.map((k) => `first-${k}`), ...keys.map((k) => `second-${k}`)].sort());
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    await waitFor(
      async () => {
        const { rows } = await pool.query<{ partition: number; next_offset: string }>(
          `SELECT partition, next_offset::text FROM ${offsets} WHERE group_id = $1`,
          [groupId],
        );
        return ends.every((end) => Number(end.high) === 0 || rows.find((r) => r.partition === end.partition)?.next_offset === end.high);
      },
      { timeoutMs: 10000, what: "every partition's offset stored at its end" },
    );
  });

  it('a fetch of combineBelowMessages or more is applied partition by partition, a transaction each', async () => {
    const topic = await topicWith([], 6);
    const { pool: counted, commits } = countingCommits();
    let batches = 0;
    await start(topic, uniqueName('large-fetch'), {
      pool: counted,
      combineBelowMessages: 10,
      handler: async (messages, { tx }) => {
        batches++;
        for (const m of messages) await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        return { outcomes: messages.map(() => OK) };
      },
    });
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    await produce(
      topic,
      keys.map((key) => ({ key, value: `first-${key}` })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 12, { timeoutMs: 30000, what: 'the first messages', state: async () => commits() });
    const before = { commits: commits(), batches };
    // 48 messages in one produce: the next fetch holds all of them, over every partition.
    await produce(
      topic,
      Array.from({ length: 48 }, (_, i) => ({ key: keys[i % 12]!, value: `v${i}` })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 60, { timeoutMs: 30000, what: 'every message', state: async () => commits() });
    expect(batches - before.batches).toBeGreaterThan(1);
    expect(commits() - before.commits).toBe(batches - before.batches);
  });

  it('a fetch whose batch in one partition fails is applied partition by partition: the bad message alone is dropped, the rest applied once', async () => {
    const topic = await topicWith([], 4);
    const dropped: string[] = [];
    const consumer = await start(topic, uniqueName('together-bad'), {
      gatherMs: 200,
      onDrop: (_message, reason) => dropped.push(reason.split(':')[0]!),
      handler: async (messages, { tx }) => {
        for (const m of messages) {
          if (m.value === 'poison') throw new Error('a bug this message triggers');
          await tx.query(`INSERT INTO ${applied} VALUES ($1, $2, $3)`, [topic, m.offset, m.value]);
        }
        return { outcomes: messages.map(() => OK) };
      },
    });
    const values = Array.from({ length: 24 }, (_, i) => (i === 13 ? 'poison' : `v${i}`));
    await produce(
      topic,
      values.map((value, i) => ({ key: `key-${i % 8}`, value })),
    );
    await waitLogged(async () => (await appliedValues(topic)).length === 23, { timeoutMs: 30000, what: 'the 23 good messages', state: async () => dropped });
    expect((await appliedValues(topic)).sort()).toEqual(values.filter((v) => v !== 'poison').sort());
    expect(dropped).toEqual(['handler_failed']);
    await consumer.stop();
  });
});
