/**
 * Chaos soak (issue 42 point 4): the whole stack at a steady rate while one
 * part after another is killed or restarted, then a drain and the checks
 * that the faults composed: every acknowledged event stored exactly once,
 * usage counters equal to the stored rows, every tile's live state equal to
 * its replay (POST /tiles/:id/replay), every status transition of a tile with
 * a webhook service notified once (by webhook-id), and no process left dead.
 *
 * It runs on infrastructure of its own (a private Postgres cluster under a
 * temp dir, a private Kafka broker through deploy/kafka.sh with its own state
 * and ports, its own redis-server on a free port), so restarting those never
 * touches the Postgres, Redis and Kafka that other tests on this machine share.
 *
 *   pnpm bench:chaos [--minutes 10] [--rate 500] [--fault-every 30] [--projects 20] [--tiles 100] [--seed 1] [--faults kill,kafka,redis,postgres]
 *
 * Prints each fault with its time and what the clients saw since the one
 * before (statuses, 503s, the longest gap between acknowledgements), then the
 * checks as JSON; exits 1 when any check fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import {
  freePort,
  provisionProject,
  serviceTestEnv,
  spawnService,
  startPrivateBroker,
  startPrivatePostgres,
  TEST_ADMIN_TOKEN,
  waitFor,
  type ServiceProcess,
} from '@pulseboard/test-kit';

const root = fileURLToPath(new URL('../../', import.meta.url));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? process.env[`CHAOS_${name.toUpperCase().replaceAll('-', '_')}`] : process.argv[at + 1];
  return value === undefined ? fallback : Number(value);
}

const MINUTES = option('minutes', 10);
const RATE = option('rate', 500);
const FAULT_EVERY_S = option('fault-every', 30);
const PROJECTS = option('projects', 20);
const TILES = option('tiles', 100);
let seed = option('seed', 1);
/** --faults kill,kafka,redis,postgres: only the faults whose name contains one of these (default: all). */
const FAULTS = (() => {
  const at = process.argv.indexOf('--faults');
  const value = at === -1 ? process.env.CHAOS_FAULTS : process.argv[at + 1];
  return value === undefined || value === '' ? undefined : value.split(',');
})();
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const clock = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;
const say = (line: string) => console.log(`${clock()} ${line}`);

/** Every kind of evaluation, with damping and staleness on some. */
const RULES = [
  { filter: { type: 'metric', name: 'latency' }, evaluation: { kind: 'threshold', attribute: 'ms', warning: 300, critical: 800 } },
  {
    filter: { type: 'metric', name: 'latency' },
    evaluation: { kind: 'threshold', attribute: 'ms', warning: 300, critical: 800 },
    pending: '5s',
    recovery: '5s',
  },
  { filter: { type: 'error' }, evaluation: { kind: 'window', aggregate: 'count', window: '30s', warning: 20, critical: 60 } },
  {
    filter: { type: 'metric', name: 'latency' },
    evaluation: { kind: 'window', aggregate: 'avg', attribute: 'ms', window: '20s', warning: 450, critical: 700 },
  },
  {
    filter: { type: 'metric', name: 'latency' },
    evaluation: { kind: 'window', aggregate: 'max', attribute: 'ms', window: '10s', warning: 900, critical: 990 },
    stale_after: '30s',
  },
  { filter: { type: 'deployment' }, evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } } },
  { filter: { type: 'uptime' }, evaluation: { kind: 'up_down', attribute: 'up' }, pending: '3s' },
];

function randomEvent(): Record<string, unknown> {
  const r = random();
  const timestamp = new Date().toISOString();
  if (r < 0.4) return { type: 'metric', name: 'latency', timestamp, attributes: { ms: Math.floor(random() * 1000) } };
  if (r < 0.65) return { type: 'error', name: 'boom', timestamp, attributes: {} };
  if (r < 0.8) return { type: 'deployment', name: pick(['deploy_started', 'deploy_finished', 'deploy_failed']), timestamp, attributes: {} };
  return { type: 'uptime', name: 'ping', timestamp, attributes: { up: random() < 0.8 } };
}

/** What to stop and remove at the end, or on SIGINT/SIGTERM: nothing of the soak outlives it. */
const cleanups: (() => unknown)[] = [];
async function cleanUp(): Promise<void> {
  for (const step of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(step)
      .catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the soak's processes and infrastructure`);
    void cleanUp().finally(() => process.exit(130));
  });
}

interface Window {
  statuses: Map<number, number>;
  unavailable: number;
  failures: number;
  lastAck: number;
  longestGapMs: number;
}
const freshWindow = (): Window => ({ statuses: new Map(), unavailable: 0, failures: 0, lastAck: Date.now(), longestGapMs: 0 });

async function main(): Promise<number> {
  say(`chaos soak: ${MINUTES} min, ${RATE} events/s, a fault every ~${FAULT_EVERY_S} s, ${TILES} tiles over ${PROJECTS} projects`);
  // Infrastructure of its own: restarting it disturbs nobody else.
  const postgres = await startPrivatePostgres();
  cleanups.push(() => postgres.destroy());
  const broker = await startPrivateBroker();
  cleanups.push(() => broker.destroy());
  const redisPort = await freePort();
  let redis: ChildProcess | undefined;
  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor(
      () =>
        new Promise<boolean>((resolve) =>
          connect(redisPort, '127.0.0.1')
            .once('connect', function (this: Socket) {
              this.end();
              resolve(true);
            })
            .once('error', () => resolve(false)),
        ),
      { timeoutMs: 10_000, what: 'redis' },
    );
  };
  await startRedis();
  cleanups.push(() => redis?.kill('SIGKILL'));
  const databaseUrl = postgres.urlFor('pulseboard_chaos');
  await migrateAll(databaseUrl, root);
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  db.on('error', () => undefined);
  cleanups.push(() => db.end());

  // The webhook receiver: every delivery, by webhook-id.
  const webhooks: { id: string; body: { tile_id?: number; status?: string; previous_status?: string } }[] = [];
  // Standard Webhooks: {type, timestamp, data}; a transition's data names its tile.
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        webhooks.push({ id: String(req.headers['webhook-id']), body: (JSON.parse(Buffer.concat(chunks).toString()) as { data?: object }).data ?? {} });
      } catch {
        webhooks.push({ id: String(req.headers['webhook-id']), body: {} });
      }
      res.writeHead(200).end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const receiverPort = (receiver.address() as { port: number }).port;
  cleanups.push(() => receiver.close());

  const gatewayPort = await freePort();
  const env = serviceTestEnv({
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
    KAFKA_BROKERS: broker.brokers,
    GATEWAY_PORT: String(gatewayPort),
    LOG_LEVEL: 'warn',
    RULE_ENGINE_SESSION_TIMEOUT_MS: '6000',
    NOTIFICATION_SESSION_TIMEOUT_MS: '6000',
    NOTIFY_ALLOW_TARGETS: `127.0.0.1:${receiverPort}`,
    NOTIFY_FIRST_RETRY_MS: '200',
    NOTIFY_MAX_BACKOFF_MS: '2000',
  });
  const services: Record<string, { name: string; process: ServiceProcess; extra: Record<string, string>; killedBySoak?: boolean }> = {};
  /** Exits the soak did not cause: each one is a failure of the run, reported with the service's last words. */
  const unexpectedExits: { service: string; at: string; code: number | null; signal: string | null }[] = [];
  let stopping = false;
  const start = async (key: string, name: string, extra: Record<string, string> = {}) => {
    const entry: (typeof services)[string] = { name, process: await spawnService(name, { ...env, ...extra }), extra };
    services[key] = entry;
    entry.process.child.once('exit', (code, signal) => {
      if (entry.killedBySoak || stopping) return;
      unexpectedExits.push({ service: key, at: clock(), code, signal });
      say(`${key} exited on its own (code ${code}, signal ${signal}); its last log lines:\n${entry.process.logs.slice(-40).join('\n')}`);
      // As a supervisor would: the run goes on with the service back, and fails at the end.
      if (services[key] === entry) void start(key, name, extra).catch((error: unknown) => say(`${key} did not restart: ${String(error)}`));
    });
  };
  await start('gateway', 'gateway');
  await Promise.all([
    start('store-1', 'store'),
    start('store-2', 'store'),
    start('rule-engine-1', 'rule-engine', { RULE_ENGINE_HTTP_PORT: '0' }),
    start('rule-engine-2', 'rule-engine', { RULE_ENGINE_HTTP_PORT: '0' }),
  ]);
  await start('notification', 'notification', { NOTIFICATION_HTTP_PORT: '0' });
  const url = `http://127.0.0.1:${gatewayPort}`;
  cleanups.push(() => {
    stopping = true;
    return Promise.all(Object.values(services).map((s) => s.process.kill('SIGTERM').catch(() => s.process.child.kill('SIGKILL'))));
  });

  // Projects, tiles of every kind, a webhook service on every third tile.
  const projects: Awaited<ReturnType<typeof provisionProject>>[] = [];
  const tiles: { id: number; project: string; token: string; notified: boolean }[] = [];
  for (let p = 0; p < PROJECTS; p++) {
    const project = await provisionProject(url, TEST_ADMIN_TOKEN, { burstLimit: 1_000_000, hourlyLimit: 100_000_000, monthlyQuota: 1_000_000_000 });
    const service = (await (
      await fetch(`${url}/api/v1/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'soak', type: 'webhook', config: { url: `http://127.0.0.1:${receiverPort}/hook` } }),
      })
    ).json()) as { data: { id: number } };
    projects.push(project);
    for (let t = p; t < TILES; t += PROJECTS) {
      const notified = t % 3 === 0;
      const body = { name: `tile ${t}`, kind: 'metric', rule: RULES[t % RULES.length], ...(notified ? { notification_service_ids: [service.data.id] } : {}) };
      const res = await fetch(`${url}/api/v1/tiles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`tile: ${res.status} ${await res.text()}`);
      tiles.push({ id: ((await res.json()) as { data: { id: number } }).data.id, project: project.projectKey, token: project.apiKey, notified });
    }
  }
  say(`stack up: ${projects.length} projects, ${tiles.length} tiles (${tiles.filter((t) => t.notified).length} with a webhook service)`);

  // Load: half the requests single events (/ingest), half batches of 10 (/api/v1/webhooks).
  const acked = new Set<string>();
  let window = freshWindow();
  const totals = freshWindow();
  let sending = true;
  const send = async () => {
    const project = pick(projects);
    const batch = random() < 0.5;
    const events = batch ? Array.from({ length: 10 }, randomEvent) : [randomEvent()];
    const path = batch ? '/api/v1/webhooks' : '/ingest';
    const body = batch ? { events } : { project_key: project.projectKey, ...events[0] };
    try {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json', 'x-project-key': project.projectKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      for (const w of [window, totals]) w.statuses.set(res.status, (w.statuses.get(res.status) ?? 0) + 1);
      const answer = (await res.json().catch(() => ({}))) as { event_id?: unknown; events?: { event_id: unknown }[] };
      if (res.status === 503) {
        window.unavailable++;
        totals.unavailable++;
      }
      if (res.status === 201 || res.status === 202 || res.status === 200) {
        // Ids as the API gives them ("evt_123"): the stored row's id is the number.
        for (const id of answer.events?.map((e) => e.event_id) ?? [answer.event_id]) if (id !== undefined) acked.add(String(id).replace(/^evt_/, ''));
        const now = Date.now();
        for (const w of [window, totals]) {
          w.longestGapMs = Math.max(w.longestGapMs, now - w.lastAck);
          w.lastAck = now;
        }
      }
    } catch {
      window.failures++;
      totals.failures++;
    }
  };
  const load = (async () => {
    // Requests per second: a batch carries 10 events, a single one; on average 5.5 per request.
    const perSecond = RATE / 5.5;
    const inFlight = new Set<Promise<void>>();
    let next = Date.now();
    while (sending) {
      next += 1000 / perSecond;
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
      if (inFlight.size >= 200) await Promise.race(inFlight);
      const p = send().finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  })();

  // Faults, one after another.
  const faults: { at: string; kind: string; clients: Record<string, unknown> }[] = [];
  const kinds = [
    'kill -9 gateway',
    'kill -9 store',
    'kill -9 rule-engine',
    'kill -9 notification',
    'restart kafka',
    'restart redis',
    'restart postgres',
  ].filter((k) => FAULTS === undefined || FAULTS.some((f) => k.includes(f)));
  const injected = new Map<string, number>();
  const restart = async (key: string) => {
    const s = services[key]!;
    const child = s.process.child;
    // A process that already exited fires no second 'exit': waiting for one would hang the soak.
    if (child.exitCode !== null || child.signalCode !== null) return;
    s.killedBySoak = true;
    const exited = once(child, 'exit').catch(() => undefined);
    child.kill('SIGKILL');
    await exited;
    await start(key, s.name, s.extra);
  };
  const deadline = started + MINUTES * 60_000;
  while (Date.now() < deadline) {
    await sleep(FAULT_EVERY_S * 1000 * (0.5 + random()));
    if (Date.now() >= deadline) break;
    const kind = pick(kinds);
    const at = clock();
    try {
      if (kind === 'kill -9 gateway') await restart('gateway');
      else if (kind === 'kill -9 store') await restart(pick(['store-1', 'store-2']));
      else if (kind === 'kill -9 rule-engine') await restart(pick(['rule-engine-1', 'rule-engine-2']));
      else if (kind === 'kill -9 notification') await restart('notification');
      else if (kind === 'restart kafka')
        await broker
          .stop()
          .then(() => sleep(10_000))
          .then(() => broker.start());
      else if (kind === 'restart redis') {
        redis?.kill('SIGKILL');
        await sleep(2000);
        await startRedis();
      } else
        await postgres
          .stop()
          .then(() => sleep(5000))
          .then(() => postgres.start());
    } catch (error) {
      say(`fault ${kind} failed: ${(error as Error).message.split('\n')[0]}`);
    }
    injected.set(kind, (injected.get(kind) ?? 0) + 1);
    const clients = {
      statuses: Object.fromEntries(window.statuses),
      unavailable_503: window.unavailable,
      failed_requests: window.failures,
      longest_gap_ms: Math.max(window.longestGapMs, Date.now() - window.lastAck),
    };
    faults.push({ at, kind, clients });
    say(`fault ${kind} (at ${at}); clients since the last fault: ${JSON.stringify(clients)}`);
    window = freshWindow();
  }
  sending = false;
  await load;
  say(`load stopped: ${acked.size} events acknowledged; draining`);

  // Drain: every acknowledged event stored, and the engines caught up (every tile's replay equal, polled).
  const storedCount = async () =>
    Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE id = ANY($1::bigint[])', [[...acked]])).rows[0]!.n);
  await waitFor(async () => (await storedCount().catch(() => -1)) >= acked.size, { timeoutMs: 180_000, what: 'every acknowledged event stored' }).catch(
    () => undefined,
  );
  const replayOf = async (tile: (typeof tiles)[number]) => {
    const res = await fetch(`${url}/api/v1/tiles/${tile.id}/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tile.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dry_run: true }),
    });
    return (await res.json()) as { data?: { equal: boolean; state: unknown; live: unknown } };
  };
  let unequal: { tile: number; state: unknown; live: unknown }[] = [];
  await waitFor(
    async () => {
      unequal = [];
      for (const tile of tiles) {
        const r = await replayOf(tile).catch(() => undefined);
        if (r?.data?.equal !== true) unequal.push({ tile: tile.id, state: r?.data?.state, live: r?.data?.live });
      }
      return unequal.length === 0;
    },
    { timeoutMs: 120_000, intervalMs: 2000, what: 'every tile equal to its replay' },
  ).catch(() => undefined);

  // Notifications: each status transition of a notified tile once, by webhook-id (retries repeat the id).
  const notifiedTiles = tiles.filter((t) => t.notified).map((t) => t.id);
  const transitions = async () =>
    (
      await db.query<{ tile_id: string; n: string }>(
        'SELECT tile_id, count(*) AS n FROM tile_state_history WHERE tile_id = ANY($1::bigint[]) AND status <> previous_status AND relay_stream IS NOT NULL GROUP BY tile_id',
        [notifiedTiles],
      )
    ).rows;
  const received = () => {
    const byTile = new Map<number, Set<string>>();
    for (const w of webhooks) if (w.body.tile_id !== undefined) byTile.set(w.body.tile_id, (byTile.get(w.body.tile_id) ?? new Set()).add(w.id));
    return byTile;
  };
  let notificationProblems: string[] = [];
  let expectedNotifications = 0;
  await waitFor(
    async () => {
      const rows = await transitions();
      const got = received();
      expectedNotifications = rows.reduce((sum, r) => sum + Number(r.n), 0);
      notificationProblems = rows
        .filter((r) => (got.get(Number(r.tile_id))?.size ?? 0) !== Number(r.n))
        .map((r) => `tile ${r.tile_id}: ${r.n} transitions, ${got.get(Number(r.tile_id))?.size ?? 0} webhook-ids`);
      return notificationProblems.length === 0;
    },
    { timeoutMs: 120_000, intervalMs: 2000, what: 'every transition notified' },
  ).catch(() => undefined);

  const stored = await storedCount();
  const duplicates = Number((await db.query<{ n: string }>('SELECT count(*) - count(DISTINCT id) AS n FROM events')).rows[0]!.n);
  const usage = (
    await db.query<{ project_key: string; counted: string; rows: string }>(
      `SELECT u.project_key, u.counted, coalesce(e.rows, 0) AS rows FROM (SELECT project_key, sum(event_count) AS counted FROM project_monthly_usage GROUP BY 1) u
       LEFT JOIN (SELECT project_key, count(*) AS rows FROM events GROUP BY 1) e USING (project_key) WHERE u.counted <> coalesce(e.rows, 0)`,
    )
  ).rows;
  const dead = Object.entries(services)
    .filter(([, s]) => s.process.child.exitCode !== null || s.process.child.signalCode !== null)
    .map(([key]) => key);
  const checks = {
    acknowledged: acked.size,
    stored_of_acknowledged: stored,
    missing: acked.size - stored,
    duplicates,
    usage_counters_differing: usage,
    tiles_compared: tiles.length,
    tiles_equal: tiles.length - unequal.length,
    unequal: unequal.slice(0, 10),
    notifications_expected: expectedNotifications,
    webhook_deliveries: webhooks.length,
    distinct_webhook_ids: new Set(webhooks.map((w) => w.id)).size,
    notification_problems: notificationProblems.slice(0, 10),
    dead_processes: dead,
    unexpected_exits: unexpectedExits,
    faults_by_kind: Object.fromEntries(injected),
    clients_overall: {
      statuses: Object.fromEntries(totals.statuses),
      unavailable_503: totals.unavailable,
      failed_requests: totals.failures,
      longest_gap_ms: totals.longestGapMs,
    },
  };
  const passed =
    checks.missing === 0 &&
    duplicates === 0 &&
    usage.length === 0 &&
    unequal.length === 0 &&
    notificationProblems.length === 0 &&
    dead.length === 0 &&
    unexpectedExits.length === 0;
  console.log(JSON.stringify({ passed, minutes: MINUTES, rate: RATE, faults, checks }, null, 2));

  await cleanUp();
  return passed ? 0 : 1;
}

process.exitCode = await main().catch(async (error: unknown) => {
  console.error(error);
  await cleanUp();
  return 1;
});
