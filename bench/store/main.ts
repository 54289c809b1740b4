/**
 * bench:store: the store draining a backlog of 1,000,000 realistic events
 * (labels, attributes, optional fields; 100 projects, one holding half; seven
 * days of times) from the events topic, by one instance and then by two of one
 * group, each run from its compiled dist/ as production runs it. Prints rows/s,
 * the consumer lag at the end and each instance's memory; in the same run the
 * baseline, a raw COPY of the same rows (rendered beforehand) into a database
 * of the same schema, for each index set weighed (the write cost of each read
 * index); and beside them the gateway's webhook-batch acceptance rate
 * (bench:ingest --only batch), and the machine's calibration (bench/shared/calibration.ts).
 *
 *   pnpm build && pnpm bench:store [--events 1000000] [--instances 1,2] [--no-gateway] [--no-variants] [--profile] [--no-calibration]
 *
 * --profile: each store instance writes a V8 CPU profile to /tmp/pulseboard-store-profiles on exit
 * (summarise it with bench/ingest/profile-summary.ts).
 *
 * Needs Kafka, Postgres and Redis (deploy/infra.sh up). Databases
 * pulseboard_store_bench and pulseboard_store_bench_copy are made anew each run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { migrateAll } from '../../packages/db/src/index.ts';
import { BatchingProducer, createKafka, ensureTopics } from '../../packages/kafka-kit/src/index.ts';
import { eventsTopicSpec, type IngestedEvent } from '../../packages/contracts/src/index.ts';
import { copy, EVENTS_COPY, LABELS_COPY, eventDays, renderBatch } from '../../services/store/src/event-writer.ts';
import { calibrate, calibrationLine } from '../shared/calibration.ts';
import {
  serviceTestEnv,
  spawnService,
  SOURCE_NODE_ARGS,
  testKafka,
  type ServiceProcess,
  TEST_KAFKA_BROKERS,
  localDatabaseUrl,
} from '../../packages/test-kit/src/index.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    instances: { type: 'string', default: '1,2' },
    'no-gateway': { type: 'boolean', default: false },
    'no-variants': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'no-calibration': { type: 'boolean', default: false },
  },
});
const EVENTS = Number(args.events);
const INSTANCES = args.instances.split(',').map(Number);
const root = fileURLToPath(new URL('../../', import.meta.url));
const BASE = process.env.STORE_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_store_bench');
const COPY_URL = BASE.replace(/\/([^/]*)$/, '/$1_copy');
const KAFKA_BROKERS = process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS;
const log = (line = '') => console.log(line);
const PROFILES = '/tmp/pulseboard-store-profiles';

/** A realistic event: half of them in the hot project, optional fields and labels on some, a handful of attributes. */
function event(n: number, now: number): IngestedEvent {
  const project = n % 2 === 0 ? 'hot' : `p${String(n % 99).padStart(2, '0')}`;
  const type = ['metric', 'uptime', 'error', 'deployment', 'infrastructure'][n % 5]!;
  const e: Record<string, unknown> = {
    id: 1_000_000_000 + n,
    project_key: project,
    account_id: 1,
    type,
    name: ['cpu_usage', 'http_check', 'exception', 'deploy_finished', 'dns_change'][n % 5],
    timestamp: new Date(now - (n % (7 * 1440)) * 60_000 - (n % 997)).toISOString(),
    received_at: new Date(now).toISOString(),
    attributes: {
      value: (n * 7) % 100,
      unit: 'percent',
      host: `web-${n % 40}`,
      region: n % 3 === 0 ? 'eu-west-1' : 'us-east-1',
      tags: ['a', `b${n % 7}`],
      detail: { code: n % 600, retry: n % 4 === 0 },
    },
  };
  if (n % 3 !== 0) e.severity = ['info', 'warn', 'error', 'critical'][n % 4];
  if (n % 2 === 0) e.source = `host-${n % 50}`;
  if (n % 4 === 0) e.channel = `ch-${n % 10}`;
  if (n % 5 === 0) e.correlation_id = `wf-${Math.floor(n / 5)}`;
  if (n % 4 !== 3) e.labels = n % 4 === 0 ? ['prod'] : ['prod', `team-${n % 20}`, n % 1000 === 7 ? 'rare' : 'eu'];
  return e as unknown as IngestedEvent;
}

function freshDatabase(url: string): void {
  const name = new URL(url).pathname.slice(1);
  execFileSync('psql', [url.replace(/\/[^/]*$/, '/postgres'), '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
}

/** The index sets weighed: what the store's migration has, none of the filter indexes, and full (not partial) ones on the optional fields. */
const VARIANTS: { name: string; apply: string[] }[] = [
  { name: 'as migrated (time, id, type, name; partial on the 4 optional fields)', apply: [] },
  {
    name: 'time and id only (no filter index)',
    apply: ['type', 'name', 'severity', 'source', 'channel', 'correlation'].map((c) => `DROP INDEX events_project_${c}_time_idx`),
  },
  {
    name: 'all 6 filter indexes full (the previous schema)',
    apply: ['severity', 'source', 'channel', 'correlation_id'].flatMap((c) => [
      `DROP INDEX events_project_${c === 'correlation_id' ? 'correlation' : c}_time_idx`,
      `CREATE INDEX events_project_${c}_full_idx ON events (project_key, ${c}, occurred_at DESC, id DESC)`,
    ]),
  },
];

/** Raw COPY of the pre-rendered rows into the copy database, one transaction, chunks of 100,000 rows. */
async function rawCopy(pool: pg.Pool, rendered: { events: string; labels: string }[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('TRUNCATE events, event_labels');
    await client.query('CHECKPOINT');
    const started = performance.now();
    await client.query('BEGIN');
    for (const chunk of rendered) {
      await copy(client, EVENTS_COPY, chunk.events);
      await copy(client, LABELS_COPY, chunk.labels);
    }
    await client.query('COMMIT');
    return EVENTS / ((performance.now() - started) / 1000);
  } finally {
    client.release();
  }
}

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** N compiled store instances of a new group drain the topic; rows/s from the first start to the last offset stored. */
async function drain(
  instances: number,
  topic: string,
  pool: pg.Pool,
  total: number,
): Promise<{ rate: number; workingRate: number; lag: number; memory: string }> {
  await pool.query('TRUNCATE events, event_labels, project_daily_events, project_monthly_usage, store_offsets');
  await pool.query('CHECKPOINT');
  const group = `bench-store-${randomUUID().slice(0, 8)}`;
  const env = serviceTestEnv({ DATABASE_URL: BASE, KAFKA_BROKERS, TOPIC_EVENTS: topic, STORE_GROUP_ID: group, STORE_HTTP_PORT: '0', LOG_LEVEL: 'warn' });
  const stores: ServiceProcess[] = [];
  const peak: number[] = [];
  const started = performance.now();
  try {
    stores.push(
      ...(await Promise.all(
        Array.from({ length: instances }, () =>
          spawnService('store', env, { compiled: true, nodeArgs: args.profile ? ['--cpu-prof', '--cpu-prof-dir', PROFILES] : [] }),
        ),
      )),
    );
    const stored = async () =>
      Number((await pool.query('SELECT coalesce(sum(next_offset), 0) AS n FROM store_offsets WHERE group_id = $1 AND next_offset > 0', [group])).rows[0].n);
    const deadline = Date.now() + 600_000;
    let done = 0;
    // Also from the first commit on: the process start-up and group join left out.
    let firstCommit: { at: number; done: number } | undefined;
    while ((done = await stored()) < total && Date.now() < deadline) {
      if (firstCommit === undefined && done > 0) firstCommit = { at: performance.now(), done };
      stores.forEach((s, i) => (peak[i] = Math.max(peak[i] ?? 0, rssMb(s.child.pid!))));
      await new Promise((r) => setTimeout(r, 100));
    }
    const rate = done / ((performance.now() - started) / 1000);
    const workingRate = firstCommit === undefined ? rate : (done - firstCommit.done) / ((performance.now() - firstCommit.at) / 1000);
    const end = stores.map((s) => rssMb(s.child.pid!));
    return {
      rate,
      workingRate,
      lag: total - done,
      memory: stores.map((_, i) => `${peak[i]!.toFixed(0)} MiB peak, ${end[i]!.toFixed(0)} MiB at the end`).join('; '),
    };
  } finally {
    await Promise.all(stores.map((s) => s.kill('SIGTERM')));
  }
}

/** The gateway's webhook-batch acceptance in this run (bench:ingest --only batch). */
function gatewayBatchRate(): number {
  const out = execFileSync(process.execPath, [...SOURCE_NODE_ARGS, 'bench/ingest/main.ts', '--only', 'batch', '--duration', '10', '--warmup', '3'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KAFKA_BROKERS },
  });
  const match = /= ([\d.]+) events\/s/.exec(out);
  if (match === null) throw new Error(`bench:ingest printed no rate:\n${out}`);
  return Number(match[1]);
}

async function main(): Promise<void> {
  if (!existsSync(`${root}services/store/dist/main.js`)) throw new Error('services/store/dist is missing: run pnpm build first');
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL: BASE } });
  for (const url of [BASE, COPY_URL]) {
    freshDatabase(url);
    await migrateAll(url, root);
  }
  const pool = new pg.Pool({ connectionString: BASE, max: 4 });
  let copyPool = new pg.Pool({ connectionString: COPY_URL, max: 2 });
  const now = Date.now();
  log(
    `bench:store: ${EVENTS} events, 100 projects (one holds half), 7 days of times; node ${process.version}, ${(await import('node:os')).cpus().length} cores`,
  );

  // The backlog: the gateway's message format, keyed by project, on a topic of its own.
  const topic = `bench.store.${randomUUID().slice(0, 8)}`;
  const kafka = createKafka({ clientId: 'bench-store', brokers: [KAFKA_BROKERS], logger: pino({ level: 'error' }) });
  await ensureTopics(kafka, [eventsTopicSpec(topic, { BODY_LIMIT_BYTES: 1_048_576 })]);
  const producer = new BatchingProducer({ kafka, logger: pino({ level: 'error' }), lingerMs: 0 });
  producer.start();
  let t = performance.now();
  const rendered: { events: string; labels: string }[] = [];
  const days = new Set<string>();
  let bytes = 0;
  for (let start = 0; start < EVENTS; start += 100_000) {
    const events = Array.from({ length: Math.min(100_000, EVENTS - start) }, (_, i) => event(start + i, now));
    const values = events.map((e) => JSON.stringify(e));
    bytes += values.reduce((s, v) => s + v.length, 0);
    for (let i = 0; i < events.length; i += 5000) {
      await Promise.all(
        events.slice(i, i + 5000).map((e, k) =>
          producer.send(topic, {
            key: e.project_key,
            value: values[i + k]!,
            headers: { 'content-type': 'application/json', 'pb-schema': 'ingested-event/1' },
          }),
        ),
      );
    }
    const r = renderBatch(events);
    rendered.push({ events: r.events, labels: r.labels });
    for (const d of eventDays(events)) days.add(d);
  }
  await producer.stop();
  const labelRows = rendered.reduce((s, r) => s + r.labels.split('\n').length - 1, 0);
  log(
    `  backlog produced in ${((performance.now() - t) / 1000).toFixed(1)} s: ${EVENTS} messages, ${(bytes / EVENTS).toFixed(0)} bytes each on average, ${labelRows} label rows`,
  );
  const offsets = await (async () => {
    const admin = testKafka(KAFKA_BROKERS).admin();
    await admin.connect();
    const o = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    return o.reduce((s, p) => s + Number(p.high), 0);
  })();
  for (const p of [pool, copyPool]) await p.query('SELECT store_ensure_day_partitions($1::date[])', [[...days]]);

  // Baseline: raw COPY of the same rows, per index set.
  t = performance.now();
  const copies: { name: string; rate: number }[] = [];
  for (const variant of args['no-variants'] ? VARIANTS.slice(0, 1) : VARIANTS) {
    const client = await copyPool.connect();
    try {
      await client.query('BEGIN');
      for (const sql of variant.apply) await client.query(sql);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    copies.push({ name: variant.name, rate: await rawCopy(copyPool, rendered) });
    log(`  raw COPY, ${variant.name}: ${copies.at(-1)!.rate.toFixed(0)} rows/s`);
    // Back to the migration's indexes for the next variant.
    await copyPool.end();
    freshDatabase(COPY_URL);
    await migrateAll(COPY_URL, root);
    copyPool = new pg.Pool({ connectionString: COPY_URL, max: 2 });
    await copyPool.query('SELECT store_ensure_day_partitions($1::date[])', [[...days]]);
  }
  const baseline = copies[0]!.rate;

  const drains: { instances: number; rate: number; workingRate: number; lag: number; memory: string }[] = [];
  for (const n of INSTANCES) {
    const d = await drain(n, topic, pool, offsets);
    drains.push({ instances: n, ...d });
    log(`  store, ${n} instance(s): ${d.rate.toFixed(0)} rows/s (start-up included), lag at the end ${d.lag}; memory: ${d.memory}`);
  }
  const gateway = args['no-gateway'] ? NaN : gatewayBatchRate();
  const calibration = args['no-calibration'] ? undefined : await calibrate(KAFKA_BROKERS);

  log();
  log(`results (${EVENTS} events, same run):`);
  if (calibration !== undefined) log(`  ${calibrationLine(calibration)}`);
  log(`  raw COPY of the same rows, same schema (baseline)   ${baseline.toFixed(0).padStart(8)} rows/s`);
  for (const d of drains) {
    log(
      `  store, ${d.instances} instance(s)                                 ${d.rate.toFixed(0).padStart(8)} rows/s   ${(d.rate / baseline).toFixed(2)} of raw COPY (target >= 0.70)   lag at the end ${d.lag}`,
    );
    log(
      `    from its first commit on (start-up and group join left out)    ${d.workingRate.toFixed(0).padStart(8)} rows/s   ${(d.workingRate / baseline).toFixed(2)} of raw COPY`,
    );
  }
  if (drains.length > 1) log(`  2 instances : 1 instance = ${(drains[1]!.rate / drains[0]!.rate).toFixed(2)}`);
  if (!Number.isNaN(gateway)) {
    log(`  gateway webhook batches accepted (bench:ingest)      ${gateway.toFixed(0).padStart(8)} events/s`);
    for (const d of drains) log(`  store, ${d.instances} instance(s) : gateway acceptance = ${(d.rate / gateway).toFixed(2)} (target >= 1)`);
  }
  log(`  write cost of each index set (raw COPY rows/s, relative to the migrated set):`);
  for (const c of copies) log(`    ${c.name.padEnd(70)} ${c.rate.toFixed(0).padStart(8)} rows/s  ${(c.rate / baseline).toFixed(2)}`);
  await pool.end();
  await copyPool.end();
  const admin = testKafka(KAFKA_BROKERS).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}

await main();
// The spawned processes are gone; nothing else should keep the loop alive.
process.exit(0);
