/**
 * bench:pg-pipeline: what a state transaction of the rule engine's shape
 * (BEGIN, the offsets move, a state upsert, a history insert, COMMIT; two rows
 * each, as at a low rate) costs the client and its Postgres backend, sent one
 * statement at a time against pipelined (node-postgres `pipeline: true`).
 * Paced at a steady rate, as the engine's gathering paces it, so each round
 * trip is a wake-up of both processes. Modes alternate; CPU from /proc.
 *
 *   pnpm bench:pg-pipeline [--rate 50] [--seconds 15] [--rounds 3]
 *
 * Modes:
 *   sequential  each statement after the previous one's answer (5 waits)
 *   pipelined   BEGIN, move and writes sent together, COMMIT after their answers (2 waits: tried in de7baa7, reverted)
 *   one-wait    everything, COMMIT included, sent together (1 wait: what a fence checked in SQL would allow)
 *   corked, corked-one-wait  the same two, the statements sent together in one socket write
 *   one-statement  the move and both writes as one statement (data-modifying CTEs, the fence a
 *                  condition in SQL), no BEGIN or COMMIT: one statement, one wait
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { prepared } from '@pulseboard/db';
import { TEST_DATABASE_URL } from '@pulseboard/test-kit';
import { cpuSeconds } from '../shared/process-cpu.ts';

const { values: args } = parseArgs({
  options: { rate: { type: 'string', default: '50' }, seconds: { type: 'string', default: '15' }, rounds: { type: 'string', default: '3' } },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const url = process.env.DATABASE_URL ?? TEST_DATABASE_URL;
const suffix = `${process.pid}`;
const T = { offsets: `pgp_offsets_${suffix}`, states: `pgp_states_${suffix}`, history: `pgp_history_${suffix}` };

const admin = new pg.Pool({ connectionString: url, max: 1 });
await admin.query(
  `CREATE TABLE ${T.offsets} (group_id text, topic text, partition int, next_offset bigint, epoch bigint, updated_at timestamptz, PRIMARY KEY (group_id, topic, partition))`,
);
await admin.query(`INSERT INTO ${T.offsets} SELECT 'g', 't', p, 0, 1, now() FROM generate_series(0, 11) p`);
await admin.query(`CREATE TABLE ${T.states} (tile_id bigint PRIMARY KEY, status text, value jsonb, version bigint, updated_at timestamptz)`);
await admin.query(`CREATE TABLE ${T.history} (id bigserial PRIMARY KEY, tile_id bigint, status text, value jsonb, version bigint, changed_at timestamptz)`);

const MOVE = `UPDATE ${T.offsets} AS o SET next_offset = m.next_offset, updated_at = now()
  FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::bigint[]) AS m(partition, next_offset, epoch, stored)
  WHERE o.group_id = 'g' AND o.topic = 't' AND o.partition = m.partition AND o.epoch = m.epoch AND o.next_offset = m.stored`;
const STATES = `INSERT INTO ${T.states} AS s (tile_id, status, value, version, updated_at) SELECT *, now() FROM unnest($1::bigint[], $2::text[], $3::jsonb[], $4::bigint[])
  ON CONFLICT (tile_id) DO UPDATE SET status = excluded.status, value = excluded.value, version = excluded.version, updated_at = now()`;
const HISTORY = `INSERT INTO ${T.history} (tile_id, status, value, version, changed_at) SELECT *, now() FROM unnest($1::bigint[], $2::text[], $3::jsonb[], $4::bigint[]) RETURNING id`;

const ONE_STATEMENT = `WITH moved AS (
    UPDATE ${T.offsets} AS o SET next_offset = m.next_offset, updated_at = now()
    FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::bigint[]) AS m(partition, next_offset, epoch, stored)
    WHERE o.group_id = 'g' AND o.topic = 't' AND o.partition = m.partition AND o.epoch = m.epoch AND o.next_offset = m.stored
    RETURNING 1),
  rows AS (SELECT * FROM unnest($5::bigint[], $6::text[], $7::jsonb[], $8::bigint[]) AS r(tile_id, status, value, version) WHERE EXISTS (SELECT 1 FROM moved)),
  states AS (INSERT INTO ${T.states} AS s (tile_id, status, value, version, updated_at) SELECT tile_id, status, value, version, now() FROM rows
    ON CONFLICT (tile_id) DO UPDATE SET status = excluded.status, value = excluded.value, version = excluded.version, updated_at = now()),
  history AS (INSERT INTO ${T.history} (tile_id, status, value, version, changed_at) SELECT tile_id, status, value, version, now() FROM rows RETURNING id)
  SELECT (SELECT count(*) FROM moved)::int AS moved, array(SELECT id FROM history) AS ids`;

/** A statement sent now and awaited later; its failure kept, never an unhandled rejection. */
class SentStatement<R> {
  private readonly settled: Promise<{ ok: true; value: R } | { ok: false; error: unknown }>;
  constructor(sent: Promise<R>) {
    this.settled = sent.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }
  async value(): Promise<R> {
    const settled = await this.settled;
    if (!settled.ok) throw settled.error;
    return settled.value;
  }
}

type Mode = 'sequential' | 'pipelined' | 'one-wait' | 'corked' | 'corked-one-wait' | 'one-statement';
const offsets = new Array<number>(12).fill(0);
let version = 0;

function statements(n: number) {
  const partition = n % 12;
  const stored = offsets[partition]!;
  offsets[partition] = stored + 2;
  version++;
  const tiles = [n % 400, (n + 1) % 400];
  const value = JSON.stringify({ count: version, sum: version * 1.5 });
  return {
    move: prepared(MOVE, [[partition], [stored + 2], [1], [stored]]),
    states: prepared(STATES, [tiles, ['ok', 'firing'], [value, value], [version, version]]),
    history: prepared(HISTORY, [tiles, ['ok', 'firing'], [value, value], [version, version]]),
    one: prepared(ONE_STATEMENT, [[partition], [stored + 2], [1], [stored], tiles, ['ok', 'firing'], [value, value], [version, version]]),
  };
}

async function transaction(client: pg.PoolClient, mode: Mode, n: number): Promise<void> {
  const s = statements(n);
  if (mode === 'sequential') {
    await client.query('BEGIN');
    const moved = await client.query(s.move);
    if (moved.rowCount !== 1) throw new Error('fenced');
    await client.query(s.states);
    await client.query(s.history);
    await client.query('COMMIT');
    return;
  }
  if (mode === 'one-statement') {
    const { rows } = await client.query<{ moved: number; ids: string[] }>(s.one);
    if (rows[0]!.moved !== 1 || rows[0]!.ids.length !== 2) throw new Error('fenced');
    return;
  }
  // Corked: the statements leave in one write (node-postgres corks each query's messages, not a run of queries).
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  const corked = mode.startsWith('corked');
  if (corked) stream.cork();
  const sent = [client.query('BEGIN'), client.query(s.move), client.query(s.states), client.query(s.history)].map((p) => new SentStatement<pg.QueryResult>(p));
  if (mode.endsWith('one-wait')) sent.push(new SentStatement(client.query('COMMIT')));
  if (corked) stream.uncork();
  const results = [];
  for (const statement of sent) results.push(await statement.value());
  if (results[1]!.rowCount !== 1) throw new Error('fenced');
  if (!mode.endsWith('one-wait')) await client.query('COMMIT');
}

async function run(mode: Mode): Promise<{ client: number; backend: number; tx: number }> {
  const pool = new pg.Pool({ connectionString: url, max: 1, pipeline: mode !== 'sequential' && mode !== 'one-statement' });
  const client = await pool.connect();
  const backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  for (let i = 0; i < 1000; i++) await transaction(client, mode, i); // warm: statements prepared, the code compiled
  const total = RATE * SECONDS;
  const before = { client: process.cpuUsage(), backend: cpuSeconds(backendPid) };
  const started = Date.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await transaction(client, mode, i);
  }
  const used = process.cpuUsage(before.client);
  const backend = cpuSeconds(backendPid) - before.backend;
  client.release();
  await pool.end();
  return { client: (used.user + used.system) / 1e6, backend, tx: total };
}

const modes: Mode[] = ['sequential', 'pipelined', 'one-wait', 'corked', 'corked-one-wait', 'one-statement'];
const figures = new Map<Mode, { client: number; backend: number }[]>(modes.map((m) => [m, []]));
console.log(`bench:pg-pipeline: ${RATE} transactions/s, ${SECONDS} s per mode, ${ROUNDS} rounds, alternating; µs of CPU per transaction`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const mode of modes) {
    const r = await run(mode);
    const per = { client: (r.client * 1e6) / r.tx, backend: (r.backend * 1e6) / r.tx };
    figures.get(mode)!.push(per);
    console.log(
      `  round ${round} ${mode.padEnd(10)} client ${per.client.toFixed(0).padStart(5)}  backend ${per.backend.toFixed(0).padStart(5)}  both ${(per.client + per.backend).toFixed(0).padStart(5)}`,
    );
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(figures.get('sequential')!.map((f) => f.client + f.backend));
console.log('means (client + backend), against sequential:');
for (const mode of modes) {
  const f = figures.get(mode)!;
  const both = mean(f.map((x) => x.client + x.backend));
  console.log(
    `  ${mode.padEnd(10)} client ${mean(f.map((x) => x.client))
      .toFixed(0)
      .padStart(5)}  backend ${mean(f.map((x) => x.backend))
      .toFixed(0)
      .padStart(5)}  both ${both.toFixed(0).padStart(5)}  ${(both / base).toFixed(2)}x`,
  );
}
await admin.query(`DROP TABLE ${T.offsets}, ${T.states}, ${T.history}`);
await admin.end();
