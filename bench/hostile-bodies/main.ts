/**
 * bench:hostile-bodies: does a burst of 1 MiB hostile bodies hurt the requests
 * beside it? A steady valid load on /ingest runs alone (baseline), then with 1
 * MiB bodies at 50 requests/s beside it (arrays of tiny values in `events`,
 * a top-level array of objects, and an array of strings just under the value
 * limit, on /ingest and /api/v1/webhooks in turn). Prints, per phase, the
 * valid load's statuses and latency (and the ratio to the baseline), the
 * hostile requests' statuses, the gateway's event-loop delay from its own
 * metrics, and its `request_failed` log lines (a limiter timeout is one).
 *
 *   pnpm bench:hostile-bodies [--duration 10] [--rate 200] [--hostile-rate 50] [--gateway-root <checkout>] [--profile <dir>]
 *
 * `--gateway-root` runs the gateway of another checkout (installed, with the
 * same migrations): the figures before a change, in the same session.
 * Starts what it needs like bench:ingest: infra (deploy/infra.sh up), its own
 * database (pulseboard_hostile_bench), Redis database 4, a topic of its own.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { freePort, localDatabaseUrl, localRedisUrl, provisionProject, SOURCE_NODE_ARGS, TEST_KAFKA_BROKERS, waitFor } from '@pulseboard/test-kit';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    'hostile-rate': { type: 'string', default: '50' },
    'gateway-root': { type: 'string' },
    profile: { type: 'string' },
  },
});
const DURATION_S = Number(args.duration);
const RATE = Number(args.rate);
const HOSTILE_RATE = Number(args['hostile-rate']);
const root = fileURLToPath(new URL('../../', import.meta.url));
const gatewayRoot = args['gateway-root'] ?? root;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_hostile_bench');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? localRedisUrl(4);
const ADMIN_TOKEN = `bench-${randomUUID()}-${randomUUID()}`;
const MiB = 1024 * 1024;
const log = (line = '') => console.log(line);

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One POST of a prepared body; resolves with the status and the time to the full answer. */
function post(url: URL, token: string, body: Buffer): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
    // No answer within 30 s counts as none (status -1), so a stalled gateway still ends the run.
    req.setTimeout(30_000, () => req.destroy());
    req.end(body);
  });
}

/** Sends `bodies` (round robin) at `rate` per second for `seconds`, paced by the clock, not by answers. */
async function paced(rate: number, seconds: number, send: (i: number) => Promise<{ status: number; ms: number }>) {
  const results: { status: number; ms: number }[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(i).then((r) => void results.push(r)));
  }
  await Promise.all(pending);
  return results;
}

function summary(results: { status: number; ms: number }[]) {
  const statuses = new Map<number, number>();
  for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;
  return {
    count: results.length,
    statuses,
    p50: at(0.5),
    p99: at(0.99),
    max: ms[ms.length - 1] ?? NaN,
    fiveXx: results.filter((r) => r.status >= 500 || r.status < 0).length,
  };
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const statusText = (m: Map<number, number>) =>
  [...m]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');

/** The gateway's event-loop delay since the last read (prom-client resets its histogram on each collect). */
async function loopDelay(url: string): Promise<{ p99: number; max: number }> {
  const text = await fetch(`${url}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

function hostileBodies(projectKey: string): { name: string; body: Buffer }[] {
  const fill = (item: string, wrap: (items: string) => string) => {
    const n = Math.floor((MiB - wrap('').length) / (item.length + 1));
    return Buffer.from(wrap(Array(n).fill(item).join(',')));
  };
  const under = 99_000;
  const text = 'x'.repeat(Math.floor(MiB / under) - 4);
  return [
    { name: '{"events":[1,1,...]} (524k values)', body: fill('1', (s) => `{"events":[${s}]}`) },
    { name: '[{},{},...] (350k objects)', body: fill('{}', (s) => `[${s}]`) },
    {
      name: `{"events":["x..",...]} (${under} strings, under the value limit)`,
      body: Buffer.from(JSON.stringify({ project_key: projectKey, events: Array(under).fill(text) })),
    },
  ];
}

async function main(): Promise<void> {
  log(`bench:hostile-bodies: ${DURATION_S} s per phase, valid /ingest at ${RATE}/s, 1 MiB bodies at ${HOSTILE_RATE}/s; gateway from ${gatewayRoot}`);
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL, REDIS_URL } });
  execFileSync(process.execPath, [...SOURCE_NODE_ARGS, 'packages/db/src/migrate-cli.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, DATABASE_URL },
  });
  const port = await freePort();
  const logs: string[] = [];
  let started = false;
  const gateway: ChildProcess = spawn(
    process.execPath,
    [...(args.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', args.profile]), ...SOURCE_NODE_ARGS, 'services/gateway/src/main.ts'],
    {
      cwd: gatewayRoot,
      env: {
        ...process.env,
        DATABASE_URL,
        REDIS_URL,
        KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
        TOPIC_EVENTS: `bench.hostile.${randomUUID().slice(0, 8)}`,
        GATEWAY_PORT: String(port),
        GATEWAY_HOST: '127.0.0.1',
        ADMIN_TOKEN,
        SECRETS_KEY: randomUUID() + randomUUID(),
        LOG_LEVEL: 'info',
        MIGRATE_ON_START: 'false',
        WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
        GLOBAL_HOURLY_LIMIT: '2000000000',
        DEFAULT_ACCOUNT_HOURLY_LIMIT: '2000000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line === '') continue;
      logs.push(line);
      if (line.includes('"event":"gateway_started"')) started = true;
    }
  };
  gateway.stdout!.on('data', onData);
  gateway.stderr!.on('data', onData);
  try {
    await waitFor(() => started || (gateway.exitCode !== null ? Promise.reject(new Error(`gateway exited:\n${logs.slice(-20).join('\n')}`)) : false), {
      timeoutMs: 60_000,
      what: 'the gateway to start',
    });
    const base = `http://127.0.0.1:${port}`;
    const big = 2_000_000_000;
    const project = await provisionProject(base, ADMIN_TOKEN, { burstLimit: big, hourlyLimit: big, monthlyQuota: big });
    const ingestUrl = new URL(`${base}/ingest`);
    const webhooksUrl = new URL(`${base}/api/v1/webhooks`);
    const valid = () =>
      Buffer.from(
        JSON.stringify({ project_key: project.projectKey, type: 'metric', name: 'cpu_usage', timestamp: new Date().toISOString(), attributes: { value: 42 } }),
      );
    const hostile = hostileBodies(project.projectKey);
    for (const h of hostile) log(`  hostile body: ${h.name}, ${h.body.length} bytes`);

    // Warm-up: both kinds, so neither phase pays for the first compilations.
    await paced(RATE, 2, () => post(ingestUrl, project.apiKey, valid()));
    await paced(HOSTILE_RATE, 1, (i) => post(i % 2 === 0 ? ingestUrl : webhooksUrl, project.apiKey, hostile[i % hostile.length]!.body));

    const failedBefore = () => logs.filter((l) => l.includes('"event":"request_failed"'));
    const phases: {
      name: string;
      valid: ReturnType<typeof summary>;
      hostile?: ReturnType<typeof summary>;
      delay: { p99: number; max: number };
      failed: number;
    }[] = [];
    for (const withHostile of [false, true]) {
      await loopDelay(base);
      const failed = failedBefore().length;
      const [validResults, hostileResults] = await Promise.all([
        paced(RATE, DURATION_S, () => post(ingestUrl, project.apiKey, valid())),
        withHostile
          ? paced(HOSTILE_RATE, DURATION_S, (i) =>
              post(Math.floor(i / hostile.length) % 2 === 0 ? ingestUrl : webhooksUrl, project.apiKey, hostile[i % hostile.length]!.body),
            )
          : Promise.resolve(undefined),
      ]);
      phases.push({
        name: withHostile ? 'valid + 1 MiB hostile' : 'valid alone (baseline)',
        valid: summary(validResults),
        ...(hostileResults === undefined ? {} : { hostile: summary(hostileResults) }),
        delay: await loopDelay(base),
        failed: failedBefore().length - failed,
      });
    }
    const baseline = phases[0]!.valid;
    for (const p of phases) {
      log(`${p.name}:`);
      log(
        `  valid /ingest: ${p.valid.count} requests, ${statusText(p.valid.statuses)}; p50 ${fmt(p.valid.p50)} ms, p99 ${fmt(p.valid.p99)} ms (x${(p.valid.p99 / baseline.p99).toFixed(2)} baseline), max ${fmt(p.valid.max)} ms; 5xx or no answer: ${p.valid.fiveXx}`,
      );
      if (p.hostile !== undefined)
        log(
          `  hostile 1 MiB: ${p.hostile.count} requests, ${statusText(p.hostile.statuses)}; p50 ${fmt(p.hostile.p50)} ms, p99 ${fmt(p.hostile.p99)} ms; 5xx or no answer: ${p.hostile.fiveXx}`,
        );
      log(`  gateway event-loop delay: p99 ${fmt(p.delay.p99)} ms, max ${fmt(p.delay.max)} ms; request_failed log lines: ${p.failed}`);
    }
    if (gateway.exitCode !== null || gateway.signalCode !== null)
      log(`the gateway EXITED (${gateway.exitCode ?? gateway.signalCode}); its last lines:\n${logs.slice(-5).join('\n').slice(0, 2000)}`);
    const failedLines = failedBefore();
    if (failedLines.length > 0) log(`first request_failed line: ${failedLines[0]!.slice(0, 400)}`);
    const fiveXx = phases.reduce((n, p) => n + p.valid.fiveXx + (p.hostile?.fiveXx ?? 0), 0);
    log(fiveXx === 0 ? 'no 5xx, no unanswered request' : `${fiveXx} 5xx or unanswered requests`);
  } finally {
    agent.destroy();
    gateway.kill('SIGTERM');
    await new Promise((resolve) => (gateway.exitCode !== null ? resolve(null) : gateway.once('exit', resolve)));
  }
}

await main();
