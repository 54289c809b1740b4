/**
 * bench:ingest: POST /ingest throughput and latency at 64 connections against a
 * bare fastify route answering 201 on the same machine, measured in the same
 * run and printed as a ratio; then webhooks batches of 100 events.
 *
 *   pnpm bench:ingest [--duration 10] [--warmup 3] [--rounds 2] [--connections 64] [--batch-connections 16]
 *                     [--only all|ingest|batch|tracing] [--profile]
 *
 * Starts what it needs: Postgres, Redis and the Kafka broker (deploy/infra.sh
 * up), its own database (pulseboard_ingest_bench), Redis database 3 and a topic of its
 * own; the gateway and the bare route each run in a child process, autocannon
 * in this one. The limits of the bench project are raised so nothing is 429.
 * With --profile the gateway writes a V8 CPU profile (into the system's temp dir);
 * summarise it with bench/ingest/profile-summary.ts. --only narrows the run (for profiles).
 * Targets: ingest >= 0.5 x bare with p99 <= 20 ms; batches >= 100k events/s.
 *
 * Tracing (also alone with --only tracing): a second gateway with OTEL_EXPORTER_OTLP_ENDPOINT set,
 * exporting to a local OTLP sink in this process, and a third built without tracing (its tracing
 * modules replaced by no-ops, @opentelemetry refused at load: bench/ingest/no-tracing), loaded in
 * turn with the default one (same rounds, same run): throughput and the gateway's CPU per event,
 * off : not built in, and on : off.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import {
  freePort,
  provisionProject,
  SOURCE_NODE_ARGS,
  testKafka,
  waitFor,
  TEST_ADMIN_TOKEN,
  TEST_KAFKA_BROKERS,
  TEST_SECRETS_KEY,
  localDatabaseUrl,
  localRedisUrl,
} from '@pulseboard/test-kit';
import { brokerRoundTrip } from './broker-rtt.ts';
import { cpuSeconds } from '../shared/process-cpu.ts';
import { otlpSink } from './otlp-sink.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    'batch-connections': { type: 'string', default: '16' },
    profile: { type: 'boolean', default: false },
    only: { type: 'string', default: 'all' },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const BATCH_CONNECTIONS = Number(args['batch-connections']);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_ingest_bench');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? localRedisUrl(3);
const KAFKA_BROKERS = process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS;
// Strong generated secrets: services refuse weak ones.
const ADMIN_TOKEN = TEST_ADMIN_TOKEN;
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line = '') => console.log(line);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  cpuUsPerRequest?: number;
}

function figures(result: Result): Figures {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Load with autocannon; also the server's CPU time per answered request, which
 * (unlike requests/s) hardly moves when other work shares the machine.
 */
async function load(
  url: string,
  connections: number,
  duration: number,
  headers: Record<string, string>,
  body: string,
  server?: ChildProcess,
): Promise<Figures> {
  const cpuBefore = cpuSeconds(server?.pid);
  const result = figures(
    await autocannon({ url, connections, duration, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, timeout: 10 }),
  );
  result.cpuUsPerRequest = ((cpuSeconds(server?.pid) - cpuBefore) * 1e6) / Math.max(1, result.ok);
  return result;
}

/** A child process that is up once it prints `startedEvent`. */
async function start(name: string, argv: string[], env: Record<string, string>, startedEvent: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let started = false;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line === '') continue;
      if (lines.length < 200) lines.push(line);
      if (line.includes(`"event":"${startedEvent}"`)) started = true;
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  await waitFor(() => started || (child.exitCode !== null ? Promise.reject(new Error(`${name} exited:\n${lines.join('\n')}`)) : false), {
    timeoutMs: 60_000,
    what: `${name} to start`,
  });
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const row = (label: string, x: Figures, unit = 'req/s') =>
  `  ${label.padEnd(30)} ${f(x.rps).padStart(8)} ${unit}  p50 ${f(x.p50).padStart(5)} ms  p99 ${f(x.p99).padStart(5)} ms` +
  `${x.cpuUsPerRequest === undefined || Number.isNaN(x.cpuUsPerRequest) ? '' : `  server CPU ${f(x.cpuUsPerRequest).padStart(5)} µs/req`}${x.failed === 0 ? '' : `  (${x.failed} not 2xx!)`}`;
const mean = (xs: Figures[]): Figures => ({
  cpuUsPerRequest: xs.reduce((s, x) => s + (x.cpuUsPerRequest ?? NaN), 0) / xs.length,
  rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
  p50: xs.reduce((s, x) => s + x.p50, 0) / xs.length,
  p99: xs.reduce((s, x) => s + x.p99, 0) / xs.length,
  ok: xs.reduce((s, x) => s + x.ok, 0),
  failed: xs.reduce((s, x) => s + x.failed, 0),
});

const mid = (xs: number[]): number => {
  const sorted = [...xs].sort((p, q) => p - q);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
};
const median = (xs: Figures[]): Figures => ({
  cpuUsPerRequest: mid(xs.map((x) => x.cpuUsPerRequest ?? NaN)),
  rps: mid(xs.map((x) => x.rps)),
  p50: mid(xs.map((x) => x.p50)),
  p99: mid(xs.map((x) => x.p99)),
  ok: xs.reduce((s, x) => s + x.ok, 0),
  failed: xs.reduce((s, x) => s + x.failed, 0),
});

/** Limiter batch sizes and Kafka ack times, from the gateway's own metrics. */
async function gatewayStats(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const opsPerCall = value('pulseboard_gateway_limiter_batch_operations_sum') / value('pulseboard_gateway_limiter_batch_operations_count');
  const ackMs = (1000 * value('pulseboard_gateway_kafka_ack_seconds_sum')) / value('pulseboard_gateway_kafka_ack_seconds_count');
  const perProduce = value('pulseboard_gateway_kafka_produce_request_messages_sum') / value('pulseboard_gateway_kafka_produce_request_messages_count');
  return `limiter: ${f(opsPerCall)} requests decided per Redis call; Kafka: ${f(perProduce)} events per produce request, ${f(ackMs)} ms mean from hand-off to ack`;
}

async function main(): Promise<void> {
  log(
    `bench:ingest: ${ROUNDS} round(s) of ${DURATION} s (after ${WARMUP} s warm-up), ${CONNECTIONS} connections; node ${process.version}, ${(await import('node:os')).cpus().length} cores`,
  );
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL, REDIS_URL } });
  execFileSync(process.execPath, [...SOURCE_NODE_ARGS, 'packages/db/src/migrate-cli.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, DATABASE_URL },
  });

  const topic = `bench.events.${randomUUID().slice(0, 8)}`;
  const barePort = await freePort();
  const gatewayPort = await freePort();
  let bare: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  let traced: ChildProcess | undefined;
  let untraced: ChildProcess | undefined;
  try {
    bare = await start('bare route', [...SOURCE_NODE_ARGS, 'bench/ingest/bare-server.ts'], { PORT: String(barePort) }, 'bare_started');
    const profiles = join(tmpdir(), 'pulseboard-ingest-profiles');
    if (args.profile) {
      mkdirSync(profiles, { recursive: true });
      log(`  gateway CPU profile goes to ${profiles}`);
    }
    const gatewayEnv = (port: number): Record<string, string> => ({
      DATABASE_URL,
      REDIS_URL,
      KAFKA_BROKERS,
      TOPIC_EVENTS: topic,
      GATEWAY_HOST: '127.0.0.1',
      ADMIN_TOKEN,
      SECRETS_KEY: TEST_SECRETS_KEY,
      LOG_LEVEL: 'info',
      MIGRATE_ON_START: 'false',
      // No rule engine here: webhooks answer 202 at once instead of waiting for an outcome
      // (bench:rules measures webhooks with tiles_affected).
      WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
      // Raised so the run measures the work, not the refusals; every limit is still checked.
      GLOBAL_HOURLY_LIMIT: '2000000000',
      DEFAULT_ACCOUNT_HOURLY_LIMIT: '2000000000',
      GATEWAY_PORT: String(port),
    });
    gateway = await start(
      'gateway',
      [...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', profiles] : []), ...SOURCE_NODE_ARGS, 'services/gateway/src/main.ts'],
      gatewayEnv(gatewayPort),
      'gateway_started',
    );
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const big = 2_000_000_000;
    const project = await provisionProject(gatewayUrl, ADMIN_TOKEN, {
      projectKey: `bench-${randomUUID().slice(0, 8)}`,
      burstLimit: big,
      hourlyLimit: big,
      monthlyQuota: big,
    });
    const auth = { authorization: `Bearer ${project.apiKey}` };
    const event = (i: number) => ({
      project_key: project.projectKey,
      type: 'metric',
      name: 'cpu_usage',
      timestamp: new Date().toISOString(),
      severity: 'info',
      source: 'web-1',
      labels: ['prod', 'eu-west'],
      attributes: { value: 42.5 + i, unit: 'percent', threshold: 90, host: 'web-1', tags: ['a', 'b'] },
    });
    const single = JSON.stringify(event(0));
    const batch = JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(i)) });
    log(`  event: ${single.length} bytes; batch of 100: ${batch.length} bytes`);

    const bareRounds: Figures[] = [];
    const ingestRounds: Figures[] = [];
    if (args.only === 'ingest') {
      await load(`${gatewayUrl}/ingest`, CONNECTIONS, WARMUP, auth, single);
      log(row('POST /ingest', await load(`${gatewayUrl}/ingest`, CONNECTIONS, DURATION, auth, single, gateway)));
      log(`  ${await gatewayStats(gatewayUrl)}`);
      return;
    }
    /**
     * The same load, round by round, on three gateways: tracing off (the default build, no endpoint),
     * tracing on (every request's span exported), and a build without tracing at all (the tracing
     * modules replaced by no-ops, @opentelemetry never loaded: bench/ingest/no-tracing).
     */
    const tracingPhase = async (): Promise<void> => {
      const sink = await otlpSink();
      const tracedPort = await freePort();
      const bareBuildPort = await freePort();
      traced = await start(
        'gateway (tracing on)',
        [...SOURCE_NODE_ARGS, 'services/gateway/src/main.ts'],
        { ...gatewayEnv(tracedPort), OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
        'gateway_started',
      );
      untraced = await start(
        'gateway (no tracing built in)',
        [...SOURCE_NODE_ARGS, '--import', './bench/ingest/no-tracing/register.mjs', 'services/gateway/src/main.ts'],
        gatewayEnv(bareBuildPort),
        'gateway_started',
      );
      const configs = {
        off: { label: 'off', url: gatewayUrl, server: gateway, figures: [] as Figures[] },
        on: { label: 'on (OTLP)', url: `http://127.0.0.1:${tracedPort}`, server: traced, figures: [] as Figures[] },
        none: { label: 'not built in', url: `http://127.0.0.1:${bareBuildPort}`, server: untraced, figures: [] as Figures[] },
      };
      const order = Object.values(configs);
      // Taken in turn, the order rotated every round (no configuration always runs first or last).
      for (let round = 1; round <= ROUNDS; round++) {
        for (let i = 0; i < order.length; i++) {
          const c = order[(i + round - 1) % order.length]!;
          await load(`${c.url}/ingest`, CONNECTIONS, WARMUP, auth, single);
          c.figures.push(await load(`${c.url}/ingest`, CONNECTIONS, DURATION, auth, single, c.server));
          log(row(`round ${round}: tracing ${c.label}`, c.figures.at(-1)!));
        }
      }
      await stop(traced);
      await stop(untraced);
      // Medians: a cold first round on a shared machine would otherwise decide a mean.
      const [a, b, n] = [median(configs.off.figures), median(configs.on.figures), median(configs.none.figures)];
      log(
        `tracing (median of ${ROUNDS} round(s), ${CONNECTIONS} connections; on = a span per request exported over OTLP/HTTP JSON to a local sink; not built in = tracing modules replaced by no-ops, Pulseboard loads no @opentelemetry module (prom-client's own load of the API aside)):`,
      );
      log(row('POST /ingest, tracing not built in', n));
      log(row('POST /ingest, tracing off', a));
      log(row('POST /ingest, tracing on', b));
      log(
        `  off : not built in  throughput ${(a.rps / n.rps).toFixed(2)}   gateway CPU per event ${(a.cpuUsPerRequest! / n.cpuUsPerRequest!).toFixed(2)}   p99 ${f(n.p99)} -> ${f(a.p99)} ms`,
      );
      log(
        `  on : off  throughput ${(b.rps / a.rps).toFixed(2)}   gateway CPU per event ${(b.cpuUsPerRequest! / a.cpuUsPerRequest!).toFixed(2)}   p99 ${f(a.p99)} -> ${f(b.p99)} ms;  spans received by the sink: ${sink.spans()} (${configs.on.figures.reduce((m, x) => m + x.ok, 0)} requests measured, warm-ups besides)`,
      );
      await sink.close();
    };
    if (args.only === 'tracing') {
      await tracingPhase();
      return;
    }
    if (args.only === 'batch') {
      await load(`${gatewayUrl}/api/v1/webhooks`, BATCH_CONNECTIONS, WARMUP, auth, batch);
      const batches = await load(`${gatewayUrl}/api/v1/webhooks`, BATCH_CONNECTIONS, DURATION, auth, batch, gateway);
      log(row(`webhooks, 100/batch`, batches));
      log(`  = ${f(batches.rps * 100)} events/s`);
      return;
    }
    for (let round = 1; round <= ROUNDS; round++) {
      await load(`http://127.0.0.1:${barePort}/ingest`, CONNECTIONS, WARMUP, {}, single);
      bareRounds.push(await load(`http://127.0.0.1:${barePort}/ingest`, CONNECTIONS, DURATION, {}, single, bare));
      log(row(`round ${round}: bare fastify 201`, bareRounds.at(-1)!));
      await load(`${gatewayUrl}/ingest`, CONNECTIONS, WARMUP, auth, single);
      ingestRounds.push(await load(`${gatewayUrl}/ingest`, CONNECTIONS, DURATION, auth, single, gateway));
      log(row(`round ${round}: POST /ingest`, ingestRounds.at(-1)!));
    }
    log(`  ${await gatewayStats(gatewayUrl)}`);
    const rtt = await brokerRoundTrip(KAFKA_BROKERS, `${topic}.rtt`, 32, 300);

    await load(`${gatewayUrl}/api/v1/webhooks`, BATCH_CONNECTIONS, WARMUP, auth, batch);
    const batches = await load(`${gatewayUrl}/api/v1/webhooks`, BATCH_CONNECTIONS, DURATION, auth, batch, gateway);
    const events = { ...batches, rps: batches.rps * 100 };

    const b = mean(bareRounds);
    const g = mean(ingestRounds);
    const ratio = g.rps / b.rps;
    log();
    log(`results (mean of ${ROUNDS} round(s), ${CONNECTIONS} connections):`);
    log(row('bare fastify route (baseline)', b));
    log(row('POST /ingest', g));
    log(`  ratio /ingest : bare = ${ratio.toFixed(2)}   (target >= 0.50)   p99 ${f(g.p99)} ms (target <= 20)`);
    log(
      `  server CPU per request, bare : ingest = ${(b.cpuUsPerRequest! / g.cpuUsPerRequest!).toFixed(2)}   (the same ratio, as far as the gateway's own work decides it)`,
    );
    log(`  the broker alone, 32-message produce requests one after another: p50 ${f(rtt.p50)} ms, p99 ${f(rtt.p99)} ms (a floor under /ingest latency)`);
    log(row(`webhooks, 100/batch, ${BATCH_CONNECTIONS} conns`, batches));
    log(row('  = events', events, 'ev/s '));
    log(`  batch events/s ${f(events.rps)} (target >= 100000)`);
    const verdict = [ratio >= 0.5, g.p99 <= 20, events.rps >= 100_000, g.failed + b.failed + batches.failed === 0];
    log(
      `  targets: ratio ${verdict[0] ? 'met' : 'MISSED'}, p99 ${verdict[1] ? 'met' : 'MISSED'}, batch ${verdict[2] ? 'met' : 'MISSED'}, all answers 2xx ${verdict[3] ? 'yes' : 'NO'}`,
    );
    log();
    await tracingPhase();
  } finally {
    await stop(traced);
    await stop(untraced);
    await stop(gateway);
    await stop(bare);
    const admin = testKafka().admin();
    await admin.connect();
    for (const name of [topic, `${topic}.rtt`]) await admin.deleteTopics({ topics: [name] }).catch(() => undefined);
    await admin.disconnect();
  }
}

await main();
