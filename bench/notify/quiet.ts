/**
 * bench:notify-quiet: what the notification service costs for tile changes
 * nobody listens to (issue 25: "a tile change that no notification service
 * listens to costs the notification service no Postgres round trip").
 *
 * One project with 20 tiles and no notification service; status transitions
 * of those tiles are produced straight to the tile-changes topic, one message
 * per produce call (the small batches of a low rate), at `--rate` for
 * `--seconds`, read by one notification service at a time: this checkout's,
 * `--checkout`'s (a git worktree of another commit, dependencies installed),
 * then this checkout's again, each in a consumer group of its own. Printed per
 * run, from /proc: the service's CPU µs per change (and above its idle CPU,
 * measured just before), the CPU of the Postgres backends serving the run's
 * database, and the database's transactions per change; then the ratios.
 *
 *   pnpm bench:notify-quiet --checkout <dir> [--rate 300] [--seconds 20] [--idle 10]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import {
  freePort,
  localDatabaseUrl,
  localRedisUrl,
  provisionProject,
  request,
  spawnService,
  testKafka,
  TEST_ADMIN_TOKEN,
  TEST_KAFKA_BROKERS,
  TEST_SECRETS_KEY,
  waitFor,
  type ServiceProcess,
} from '@pulseboard/test-kit';
import { PROJECT_REVISION_HEADER } from '@pulseboard/contracts';
import { cpuSeconds } from '../shared/process-cpu.ts';

const { values: args } = parseArgs({
  options: {
    checkout: { type: 'string' },
    rate: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '20' },
    idle: { type: 'string', default: '10' },
  },
});
if (args.checkout === undefined) throw new Error('--checkout <dir>: the other checkout to compare with');
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const IDLE = Number(args.idle);
const TILES = 20;
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const DATABASE_URL = localDatabaseUrl(`pulseboard_quiet_${run}`);
const env: Record<string, string> = {
  LOG_LEVEL: 'info',
  DATABASE_URL,
  REDIS_URL: localRedisUrl(6),
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
  TOPIC_EVENTS: `bench.quiet.${run}.events`,
  TOPIC_TILE_CHANGES: `bench.quiet.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.quiet.${run}.rule-outcomes`,
  TOPIC_NOTIFICATION_REQUESTS: `bench.quiet.${run}.requests`,
  TOPIC_NOTIFICATION_OUTCOMES: `bench.quiet.${run}.outcomes`,
  TOPIC_NOTIFICATIONS_DLQ: `bench.quiet.${run}.dlq`,
  TOPIC_CONTROL: `bench.quiet.${run}.control`,
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SECRETS_KEY: TEST_SECRETS_KEY,
  MIGRATE_ON_START: 'false',
  WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
  NOTIFICATION_HTTP_PORT: '0',
};

/** A notification service of `checkout`, from source, in consumer group `group`. */
async function startNotification(checkout: string, group: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-C', '@pulseboard/source', '--import', 'tsx', join('services', 'notification', 'src', 'main.ts')], {
    cwd: checkout,
    env: { ...process.env, ...env, NOTIFICATION_GROUP_ID: group },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let started = false;
  const lines: string[] = [];
  const onData = (c: Buffer) => {
    const text = c.toString();
    lines.push(text);
    if (text.includes('"event":"notification_started"')) started = true;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  await waitFor(() => started || (child.exitCode !== null ? Promise.reject(new Error(lines.join('').slice(-3000))) : false), {
    timeoutMs: 60_000,
    what: `notification of ${checkout}`,
  });
  return child;
}

async function main(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL } });
  await migrateAll(DATABASE_URL, root);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const db = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const processes: ServiceProcess[] = [];
  const children: ChildProcess[] = [];
  try {
    const port = await freePort();
    processes.push(await spawnService('gateway', { ...env, GATEWAY_PORT: String(port), GATEWAY_HOST: '127.0.0.1' }));
    const gateway = `http://127.0.0.1:${port}`;
    const project = await provisionProject(gateway, TEST_ADMIN_TOKEN);
    const tiles: number[] = [];
    for (let t = 0; t < TILES; t++) {
      const res = await request(`${gateway}/api/v1/tiles`, {
        token: project.apiKey,
        body: { name: `tile ${t}`, kind: 'uptime', rule: { filter: { name: `svc-${t}` }, evaluation: { kind: 'up_down', attribute: 'is_up' } } },
      });
      tiles.push(res.body.data.id);
    }
    const revision = String((await db.query('SELECT revision FROM projects WHERE project_key = $1', [project.projectKey])).rows[0].revision);
    const produce = async (from: number, total: number) => {
      const producer = kafka.producer({ allowAutoTopicCreation: false });
      await producer.connect();
      const started = Date.now();
      for (let n = 0; n < total; n++) {
        const due = started + (n / RATE) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        const p = from + n;
        const up = Math.floor(p / TILES) % 2 === 0;
        const change = {
          position: p + 1,
          tile_id: tiles[p % TILES],
          project_key: project.projectKey,
          tile_name: 't',
          status: up ? 'ok' : 'critical',
          previous_status: up ? 'critical' : 'ok',
          value: up,
          previous_value: !up,
          version: p + 1,
          event_id: p + 1,
          changed_at: new Date().toISOString(),
          cause: 'event',
        };
        await producer.send({
          topic: env.TOPIC_TILE_CHANGES!,
          acks: -1,
          messages: [
            {
              key: project.projectKey,
              value: JSON.stringify(change),
              headers: { 'content-type': 'application/json', 'pb-schema': 'tile-change/1', [PROJECT_REVISION_HEADER]: revision },
            },
          ],
        });
      }
      await producer.disconnect();
    };
    // The Postgres backends serving this run's database (the gateway's sit idle), their CPU and the database's transactions.
    const backends = async () =>
      new Map(
        (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => [
          r.pid,
          cpuSeconds(r.pid),
        ]),
      );
    const xacts = async () =>
      Number((await db.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
    const total = RATE * SECONDS;
    const figures: { name: string; perChange: number; marginal: number; idle: number; pgPerChange: number; xactsPerChange: number }[] = [];
    // Each checkout's service alone on the same stream, this one first, then the other, then this one again.
    const plan = [
      { name: 'this checkout', checkout: root },
      { name: args.checkout!, checkout: args.checkout! },
      { name: 'this checkout (again)', checkout: root },
    ];
    for (const [i, step] of plan.entries()) {
      const group = `bench-quiet-${i}-${run}`;
      const child = await startNotification(step.checkout, group);
      const end0 = (await admin.fetchTopicOffsets(env.TOPIC_TILE_CHANGES!)).reduce((sum, p) => sum + Number(p.high), 0);
      children.push(child);
      const idleStart = cpuSeconds(child.pid);
      await new Promise((r) => setTimeout(r, IDLE * 1000));
      const idleCores = (cpuSeconds(child.pid) - idleStart) / IDLE;
      const pgBefore = await backends();
      const xactBefore = await xacts();
      const cpuBefore = cpuSeconds(child.pid);
      const started = Date.now();
      await produce(end0, total);
      const end = end0 + total;
      await waitFor(
        async () =>
          (await admin.fetchOffsets({ groupId: group, topics: [env.TOPIC_TILE_CHANGES!] }))[0]!.partitions.reduce(
            (sum, p) => sum + Math.max(0, Number(p.offset)),
            0,
          ) >= end,
        { timeoutMs: 120_000, intervalMs: 200, what: `${step.name} to read every change` },
      );
      const seconds = (Date.now() - started) / 1000;
      const used = cpuSeconds(child.pid) - cpuBefore;
      const pgAfter = await backends();
      let pgUsed = 0;
      for (const [pid, cpuNow] of pgAfter) pgUsed += cpuNow - (pgBefore.get(pid) ?? 0);
      const xactUsed = (await xacts()) - xactBefore;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      figures.push({
        name: step.name,
        perChange: (used / total) * 1e6,
        marginal: ((used - idleCores * seconds) / total) * 1e6,
        idle: idleCores,
        pgPerChange: (pgUsed / total) * 1e6,
        xactsPerChange: xactUsed / total,
      });
    }
    const deliveries = Number((await db.query('SELECT count(*) AS n FROM notification_deliveries')).rows[0].n);
    console.log(
      `bench:notify-quiet: ${total} status transitions of ${TILES} tiles of a project with no notification service, ${RATE}/s one per produce call, read by each checkout's notification service alone in turn (deliveries created: ${deliveries})`,
    );
    for (const f of figures)
      console.log(
        `  ${f.name.padEnd(32)} notification ${Math.round(f.perChange)} µs/change (${Math.round(f.marginal)} above its idle ${f.idle.toFixed(3)} cores); Postgres backends ${Math.round(f.pgPerChange)} µs/change; ${f.xactsPerChange.toFixed(2)} transactions/change`,
      );
    const mine = (figures[0]!.perChange + figures[2]!.perChange) / 2;
    const minePg = (figures[0]!.pgPerChange + figures[2]!.pgPerChange) / 2;
    console.log(
      `  ratio this/other (this = mean of its two runs): notification ${(mine / figures[1]!.perChange).toFixed(2)}, notification + its Postgres backends ${((mine + minePg) / (figures[1]!.perChange + figures[1]!.pgPerChange)).toFixed(2)}`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await new Promise((r) => setTimeout(r, 2000));
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(`bench.quiet.${run}.`));
    await admin.deleteTopics({ topics: mine }).catch(() => undefined);
    await admin.disconnect();
    await db.end();
    execFileSync('psql', [DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), '-qc', `DROP DATABASE IF EXISTS pulseboard_quiet_${run} WITH (FORCE)`]);
  }
}

await main();
