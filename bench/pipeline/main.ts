/**
 * bench:pipeline: the whole stack (five services, Kafka, Postgres, Redis, each
 * private to the run) under a workload of 100 projects x 20 tiles of the four
 * kinds, 100 WebSocket clients (one per project), a webhook notification on
 * 10% of the tiles to a local receiver. Phases: idle, steady single events to
 * /ingest at 100, 300 and 1,000 events/s, webhook batches of 100 at 10,000
 * events/s. For each phase, from /proc: CPU µs per event of every process
 * (Postgres: the postmaster with all its backends; Kafka: the broker's JVM)
 * and in total, the cores the stack used, peak memory (PSS) per process;
 * latency p50/p99 from the 201 to the row stored, to the tile change on Kafka,
 * to the WebSocket frame and to the notification's receipt. A calibration in
 * the same run (a bare fastify POST, raw kafkajs produce and consume, CPU µs
 * per message, at 1,000/s and at 100/s) lets figures from two runs or machines
 * be compared. At the end, with the idle, ingest-100 and ingest-1000 phases:
 * the marginal cost of an event at 100/s ((cores - idle cores) / rate) against
 * its cost at 1,000/s, beside the same ratio of the bare fastify server.
 *
 *   pnpm bench:pipeline [--phases idle,ingest-100,ingest-300,ingest-1000,webhook-10000]
 *                       [--seconds 20] [--idle-seconds 30] [--warmup 10] [--projects 100]
 *                       [--checkout <dir>] [--profile] [--json <file>] [--no-calibration]
 *                       [--env NAME=value ...] [--postgres-conf <file>|none] [--no-notifications]
 *
 * --checkout: run another checkout's services (a git worktree of an older
 * commit, with its dependencies installed) on the same infrastructure and
 * load, for a before/after series; its deploy/postgres/pulseboard.conf, if
 * any, configures the run's Postgres. --profile: each service writes a V8 CPU
 * profile (summarise with bench/ingest/profile-summary.ts), and each phase
 * prints the top statements of pg_stat_statements per event.
 * Other phase names: ingest-<rate>, webhook-<rate> (batches of 100), and
 * ingest-max: single events as fast as 256 requests in flight allow, the
 * capacity of the run; with it, each ingest phase's rate is printed as a share
 * of that capacity (issue 25: a p99 target counts at no more than half), and
 * a later ingest-half phase offers half of it. --env sets a
 * service variable (a lever on or off, same code); --postgres-conf another
 * settings file, or none for Debian's defaults. --no-notifications: no project
 * has a notification service (what the notification service costs when nobody
 * listens: issue 25).
 *
 * The measured window of a phase runs from its first request until the
 * store and the rule engine have applied every event, plus one second for
 * the relay, broadcast and notifications; the warm-up before the first phase
 * is left out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { testKafka, waitFor } from '@pulseboard/test-kit';
import { percentile } from '../shared/ingest-driver.ts';
import { treeCpuSeconds, treesPssBytes, treeRunQueueWaitSeconds } from '../shared/process-cpu.ts';
import { calibrateFastify, calibrateKafka } from '../shared/calibration.ts';
import { postgresSettingsOf, startInfra, type Infra } from './infra.ts';
import { migrate, startStack, SERVICES, type Stack } from './stack.ts';
import { provision } from './workload.ts';
import { Observer } from './observe.ts';
import { Driver, type Driven } from './drive.ts';
import { readGatewayTrips, tripsBetween, type GatewayTrips } from './gateway-trips.ts';

const { values: args } = parseArgs({
  options: {
    phases: { type: 'string', default: 'idle,ingest-100,ingest-300,ingest-1000,webhook-10000' },
    seconds: { type: 'string', default: '20' },
    'idle-seconds': { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
    projects: { type: 'string', default: '100' },
    checkout: { type: 'string' },
    profile: { type: 'boolean', default: false },
    json: { type: 'string' },
    'no-calibration': { type: 'boolean', default: false },
    'no-notifications': { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    'postgres-conf': { type: 'string' },
  },
});
const root = fileURLToPath(new URL('../../', import.meta.url));
const checkout = args.checkout ?? root;
// An older checkout's gateway answers in its own (older) shapes: the test kit's OpenAPI check of today's document is off.
if (args.checkout !== undefined) process.env.PULSEBOARD_OPENAPI_CHECK = 'off';
const SECONDS = Number(args.seconds);
/** ingest-max: requests in flight. With 64 (bench:ingest's connections) a stack whose latency grows under load was measured below its capacity (Little's law: 64 / 75 ms is 850/s). */
const CAPACITY_LANES = 256;
const log = (line = '') => console.log(line);
const PROCESSES = [...SERVICES, 'kafka', 'postgres', 'redis'] as const;
type ProcessName = (typeof PROCESSES)[number];

function pidsOf(infra: Infra, stack?: Stack): Partial<Record<ProcessName, number>> {
  return { ...(stack?.pids() ?? {}), ...infra.pids() };
}

function cpuNow(pids: Partial<Record<ProcessName, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpuSeconds(pid)]));
}

/**
 * The bench's own processes (`bench`): its CPU is not the stack's, but it
 * shares the cores. The services, Redis and the broker are the bench's
 * children, so their subtrees are left out of its figure.
 */
function benchCpuNow(pids: Partial<Record<ProcessName, number>>): number {
  return treeCpuSeconds(process.pid, new Set(Object.values(pids)));
}

function waitNow(pids: Partial<Record<ProcessName, number>>): Record<string, number> {
  const own = Object.entries(pids).map(([name, pid]) => [name, treeRunQueueWaitSeconds(pid)] as const);
  return Object.fromEntries([...own, ['bench', treeRunQueueWaitSeconds(process.pid, new Set(Object.values(pids)))] as const]);
}

const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');

interface PhaseResult {
  phase: string;
  offered: number;
  events: number;
  windowSeconds: number;
  achieved: number;
  cpu: Record<string, number>;
  peakPssMb: Record<string, number>;
  latency: Record<string, { p50: number; p99: number; n: number }>;
  notAccepted: Record<string, number>;
  statements?: { calls_per_event: number; mean_us: number; query: string }[];
  /** The gateways' Kafka produce requests and limiter script calls in the phase. */
  gatewayTrips?: GatewayTrips;
  /** Seconds each process (and the bench's own, `bench`) waited in the run queue for a CPU in the phase. */
  runQueueWait?: Record<string, number>;
  /** The bench's own CPU seconds in the phase (its driver, observers and WebSocket clients share the cores). */
  benchCpu?: number;
  /** The bench process's own event-loop delay in the phase, ms: its stalls are in every latency it measures. */
  benchLoopDelay?: { p99: number; max: number };
}

async function main(): Promise<void> {
  const phases = args.phases.split(',');
  log(
    `bench:pipeline: checkout ${checkout} (${execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD']).toString().trim()}), phases ${phases.join(', ')}, ${SECONDS} s each (idle ${args['idle-seconds']} s)`,
  );
  const pgConf = args['postgres-conf'];
  const settings = pgConf === undefined ? postgresSettingsOf(checkout) : pgConf === 'none' ? '' : readFileSync(pgConf, 'utf8');
  const serviceEnv = Object.fromEntries(args.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  if (args.env.length > 0) log(`service environment: ${args.env.join(' ')}`);
  let stack: Stack | undefined;
  const infra = await startInfra(root, settings);
  // A run stopped by a signal still stops what it started (a private Postgres and broker would outlive it).
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void Promise.allSettled([stack?.stop(), infra.stop()]).then(() => process.exit(130)));
  log(
    `private infrastructure: postgres ${infra.databaseUrl} (${settings.trim() === '' ? "Debian's defaults" : (pgConf ?? 'deploy/postgres/pulseboard.conf of the checkout')}), kafka ${infra.brokers}, redis ${infra.redisUrl}`,
  );
  const observer = new Observer();
  const kafka = testKafka(infra.brokers);
  const admin = kafka.admin();
  const db = new pg.Pool({ connectionString: infra.databaseUrl, max: 2 });
  const results: PhaseResult[] = [];
  let calibration: PipelineCalibration | undefined;
  try {
    if (!args['no-calibration']) {
      const fastifyUs = await calibrateFastify();
      const k = await calibrateKafka(infra.brokers, () => infra.pids().kafka);
      // The same at 100/s: what this machine charges per request when requests come one at a time
      // (the like-for-like baseline of the marginal cost at a low rate, printed at the end).
      const fastifyAt100Us = await calibrateFastify(100, 10);
      const k100 = await calibrateKafka(infra.brokers, () => infra.pids().kafka, 100, 10);
      calibration = {
        fastifyUs,
        kafkaClientUs: k.client,
        kafkaBrokerUs: k.broker,
        at100: { fastifyUs: fastifyAt100Us, kafkaClientUs: k100.client, kafkaBrokerUs: k100.broker },
      };
      log(
        `calibration: bare fastify POST ${fmt(fastifyUs)} µs/request (server); raw kafkajs produce+consume ${fmt(k.client)} µs/message (client), broker ${fmt(k.broker)} µs/message`,
      );
      log(
        `  the same at 100/s: bare fastify POST ${fmt(fastifyAt100Us)} µs/request (${(fastifyAt100Us / fastifyUs).toFixed(1)}x its cost at 1,000/s); ` +
          `raw kafkajs ${fmt(k100.client)} µs/message (client, ${(k100.client / k.client).toFixed(1)}x), broker ${fmt(k100.broker)} (${(k100.broker / k.broker).toFixed(1)}x, its idle work included)`,
      );
    }
    await migrate(checkout, infra.databaseUrl);
    await observer.startReceiver();
    const profileDir = args.profile ? join(tmpdir(), `pb-pipeline-profiles-${Date.now()}`) : undefined;
    if (profileDir) log(`CPU profiles go to ${profileDir}/<service>`);
    stack = await startStack(checkout, infra, { profileDir, env: serviceEnv, receiver: new URL(observer.receiverUrl).host });
    const projects = await provision(stack.gateway, stack.adminToken, Number(args.projects), observer.receiverUrl, {
      notifications: !args['no-notifications'],
    });
    await observer.start(kafka, infra.databaseUrl, stack.broadcast, projects);
    await admin.connect();
    log(`stack up: ${projects.length} projects x 20 tiles, ${projects.length} WebSocket clients subscribed`);
    const driver = new Driver(stack.gateway, projects);

    const drained = async () => {
      const offsets = await admin.fetchTopicOffsets('pulseboard.events.v1');
      const high = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
      for (const table of ['store_offsets', 'rule_engine_offsets']) {
        const { rows } = await db.query<{ partition: number; next_offset: string }>(
          `SELECT partition, next_offset FROM ${table} WHERE topic = 'pulseboard.events.v1'`,
        );
        const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
        for (const [partition, h] of high) if (h > 0 && (stored.get(partition) ?? -1) < h) return false;
      }
      return true;
    };
    const waitDrained = () => waitFor(drained, { timeoutMs: 300_000, intervalMs: 50, what: 'the pipeline to drain' });

    if (Number(args.warmup) > 0) {
      await driver.run(100, Number(args.warmup), 1);
      await waitDrained();
      await new Promise((r) => setTimeout(r, 2000));
    }

    for (const phase of phases) {
      const [kind, rateText] = phase.split('-') as [string, string | undefined];
      const rate = phase === 'ingest-max' ? NaN : phase === 'ingest-half' ? halfCapacity(results) : Number(rateText ?? 0);
      const pids = pidsOf(infra, stack);
      const peak: Record<string, number> = {};
      let sampling: Promise<void> | undefined;
      const sampleMemory = (): Promise<void> =>
        (sampling ??= treesPssBytes(pids as Record<string, number>)
          .then((now) => {
            for (const [name, bytes] of Object.entries(now)) peak[name] = Math.max(peak[name] ?? 0, bytes);
          })
          .finally(() => (sampling = undefined)));
      // Every 2 s: a reading costs the kernel a walk of every mapping of every process (about 0.08
      // cores at once a second, from the cores the stack runs on).
      const sampler = setInterval(() => void sampleMemory(), 2000);
      if (args.profile) await db.query('SELECT pg_stat_statements_reset()');
      const started = Date.now();
      const tripsBefore = await readGatewayTrips(stack.gateways);
      const before = cpuNow(pids);
      const waitedBefore = waitNow(pids);
      const benchCpuBefore = benchCpuNow(pids);
      const loopDelay = monitorEventLoopDelay({ resolution: 1 });
      loopDelay.enable();
      let driven: Driven | undefined;
      if (kind === 'idle') {
        observer.storedPollPaused = true;
        await new Promise((r) => setTimeout(r, Number(args['idle-seconds']) * 1000));
        observer.storedPollPaused = false;
      } else if (phase === 'ingest-max') {
        driven = await driver.saturate(CAPACITY_LANES, SECONDS);
        await waitDrained();
        await new Promise((r) => setTimeout(r, 1000));
      } else if (kind === 'ingest' || kind === 'webhook') {
        driven = await driver.run(rate, SECONDS, kind === 'ingest' ? 1 : 100);
        await waitDrained();
        await new Promise((r) => setTimeout(r, 1000));
      } else throw new Error(`unknown phase ${phase}`);
      const after = cpuNow(pids);
      const waitedAfter = waitNow(pids);
      const benchCpu = benchCpuNow(pids) - benchCpuBefore;
      loopDelay.disable();
      const gatewayTrips = tripsBetween(tripsBefore, await readGatewayTrips(stack.gateways));
      const windowSeconds = (Date.now() - started) / 1000;
      clearInterval(sampler);
      await sampling;
      await sampleMemory();
      // Late arrivals (a notification retried, a slow frame) still count for latency.
      await new Promise((r) => setTimeout(r, 2000));
      const events = driven?.events ?? 0;
      const cpu = Object.fromEntries(Object.keys(before).map((name) => [name, after[name]! - before[name]!]));
      const latency: PhaseResult['latency'] = {};
      if (driven) {
        const stages: Record<string, (id: number) => number | undefined> = {
          stored: (id) => observer.storedAt(id),
          change_on_kafka: (id) => observer.arrivals.change.get(id),
          websocket_frame: (id) => observer.arrivals.ws.get(id),
          notification: (id) => observer.arrivals.notified.get(id),
        };
        latency.request = { p50: percentile(driven.latencies, 50), p99: percentile(driven.latencies, 99), n: driven.latencies.length };
        for (const [stage, at] of Object.entries(stages)) {
          const values: number[] = [];
          for (const [id, answered] of driven.answered) {
            const t = at(id);
            if (t !== undefined) values.push(t - answered);
          }
          latency[stage] = { p50: percentile(values, 50), p99: percentile(values, 99), n: values.length };
        }
      }
      let statements: PhaseResult['statements'];
      if (args.profile) {
        const { rows } = await db.query<{ calls: string; mean: number; query: string }>(
          `SELECT calls::text, mean_exec_time * 1000 AS mean, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12`,
        );
        // Idle: calls per second instead of per event.
        statements = rows.map((r) => ({
          calls_per_event: Number(r.calls) / (events > 0 ? events : windowSeconds),
          mean_us: r.mean,
          query: r.query.slice(0, 110),
        }));
      }
      const result: PhaseResult = {
        phase,
        offered: rate,
        events,
        windowSeconds,
        achieved: events / windowSeconds,
        cpu,
        peakPssMb: Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, v / 2 ** 20])),
        latency,
        notAccepted: Object.fromEntries(driven?.other ?? []),
        statements,
        gatewayTrips,
        runQueueWait: Object.fromEntries(Object.keys(waitedBefore).map((name) => [name, waitedAfter[name]! - waitedBefore[name]!])),
        benchCpu,
        benchLoopDelay: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      };
      results.push(result);
      report(result);
    }
    driver.close();
    reportMarginal(results, calibration);
    reportCapacity(results);
  } finally {
    await observer.stop().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await db.end().catch(() => undefined);
    await stack?.stop();
    await infra.stop();
  }
  if (args.json)
    writeFileSync(
      args.json,
      JSON.stringify(
        {
          checkout,
          env: args.env,
          postgres: settings,
          commit: execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD']).toString().trim(),
          calibration,
          results,
        },
        null,
        2,
      ),
    );
}

interface PipelineCalibration {
  fastifyUs: number;
  kafkaClientUs: number;
  kafkaBrokerUs: number;
  /** The same, driven at 100/s. */
  at100: { fastifyUs: number; kafkaClientUs: number; kafkaBrokerUs: number };
}

/**
 * Issue 25's marginal cost: (cores at 100/s - idle cores) / 100, against the cost of an event at
 * 1,000/s, beside the same ratio of the calibration's bare server (a process with exactly one unit
 * of work per request, no batching at all).
 */
function reportMarginal(results: PhaseResult[], calibration: PipelineCalibration | undefined): void {
  const phase = (name: string) => results.find((r) => r.phase === name);
  const idle = phase('idle');
  const low = phase('ingest-100');
  const high = phase('ingest-1000');
  if (idle === undefined || low === undefined || high === undefined) return;
  const cores = (r: PhaseResult) => Object.values(r.cpu).reduce((a, b) => a + b, 0) / r.windowSeconds;
  const marginalUs = ((cores(low) - cores(idle)) / low.achieved) * 1e6;
  const at1000Us = (Object.values(high.cpu).reduce((a, b) => a + b, 0) / high.events) * 1e6;
  const machine =
    calibration === undefined
      ? ''
      : `; a bare fastify POST: ${(calibration.at100.fastifyUs / calibration.fastifyUs).toFixed(1)}x, raw kafkajs: ${(calibration.at100.kafkaClientUs / calibration.kafkaClientUs).toFixed(1)}x`;
  log(
    `\nmarginal cost at 100 events/s: ${fmt(marginalUs)} µs/event ((cores - idle cores) / rate), ${(marginalUs / at1000Us).toFixed(1)}x the cost at 1,000/s (${fmt(at1000Us)}; target <= 2x)${machine}`,
  );
}

/** ingest-half: half the events per second an earlier ingest-max phase of the run sustained. */
function halfCapacity(results: PhaseResult[]): number {
  const max = results.find((r) => r.phase === 'ingest-max');
  if (max === undefined) throw new Error('ingest-half needs an ingest-max phase before it');
  return Math.floor(max.achieved / 2);
}

/**
 * Issue 25: a p99 target counts only at an offered rate of at most half the capacity measured in
 * the same run (queueing at saturation is not latency). With an ingest-max phase, each steady
 * phase's rate as a share of it.
 */
function reportCapacity(results: PhaseResult[]): void {
  const max = results.find((r) => r.phase === 'ingest-max');
  if (max === undefined) return;
  log(
    `\ncapacity for single events (ingest-max, ${CAPACITY_LANES} requests in flight): ${fmt(max.achieved)} events/s sustained to drained, with the bench on the same cores`,
  );
  for (const r of results) {
    if (!r.phase.startsWith('ingest-') || r === max) continue;
    const share = r.offered / max.achieved;
    const p99 = (stage: string) => fmt(r.latency[stage]?.p99 ?? NaN);
    log(
      `  ${r.phase}: ${share.toFixed(2)} of capacity, ${share <= 0.5 ? 'within' : 'above'} the half where p99 targets count; /ingest p99 ${p99('request')} ms, frame p99 ${p99('websocket_frame')} ms`,
    );
  }
}

function report(r: PhaseResult): void {
  const total = Object.values(r.cpu).reduce((a, b) => a + b, 0);
  log();
  if (r.events === 0) log(`phase ${r.phase}: ${r.windowSeconds.toFixed(1)} s, no events; the stack used ${(total / r.windowSeconds).toFixed(3)} cores`);
  else {
    const kind = r.phase.startsWith('webhook') ? 'webhook batches of 100' : 'single events to /ingest';
    const offered = r.phase === 'ingest-max' ? `${CAPACITY_LANES} requests in flight` : `${fmt(r.offered)} events/s`;
    log(
      `phase ${r.phase}: ${kind}, offered ${offered} for ${SECONDS} s, ${fmt(r.events)} accepted; window ${r.windowSeconds.toFixed(1)} s to drained, ${fmt(r.achieved)} events/s sustained${Object.keys(r.notAccepted).length > 0 ? `; answers other than 201: ${JSON.stringify(r.notAccepted)}` : ''}`,
    );
  }
  // waited: seconds per second in the run queue, ready to run but with no free core (queueing, not work).
  const waited = (name: string) => (r.runQueueWait?.[name] === undefined ? '-' : (r.runQueueWait[name] / r.windowSeconds).toFixed(3));
  log(`  ${'process'.padEnd(14)}${'µs/event'.padStart(10)}${'cores'.padStart(8)}${'peak MB'.padStart(9)}${'waited'.padStart(9)}`);
  for (const name of PROCESSES) {
    if (r.cpu[name] === undefined) continue;
    log(
      `  ${name.padEnd(14)}${(r.events > 0 ? fmt((r.cpu[name] / r.events) * 1e6) : '-').padStart(10)}${(r.cpu[name] / r.windowSeconds).toFixed(3).padStart(8)}${fmt(r.peakPssMb[name]!).padStart(9)}${waited(name).padStart(9)}`,
    );
  }
  log(`  ${'TOTAL'.padEnd(14)}${(r.events > 0 ? fmt((total / r.events) * 1e6) : '-').padStart(10)}${(total / r.windowSeconds).toFixed(3).padStart(8)}`);
  if (r.benchCpu !== undefined)
    log(
      `  ${'(the bench)'.padEnd(14)}${'-'.padStart(10)}${(r.benchCpu / r.windowSeconds).toFixed(3).padStart(8)}${'-'.padStart(9)}${waited('bench').padStart(9)}  (its driver, observers and WebSocket clients share the cores)`,
    );
  if (r.events > 0) {
    log(`  latency ms p50 / p99 from the 201 (request: the HTTP call itself):`);
    // At saturation the bench's own loop falls behind too: a 201 may be noted after its tile change (a negative figure).
    if (r.phase === 'ingest-max') log(`    (at capacity: queueing, not latency; the bench notes each 201 late)`);
    for (const [stage, l] of Object.entries(r.latency)) log(`    ${stage.padEnd(16)}${`${fmt(l.p50)} / ${fmt(l.p99)}`.padStart(14)}  (${fmt(l.n)} events)`);
    if (r.benchLoopDelay)
      log(`    the bench's own event-loop delay (in every figure above): p99 ${r.benchLoopDelay.p99.toFixed(1)} ms, max ${r.benchLoopDelay.max.toFixed(1)} ms`);
  }
  if (r.events > 0 && r.gatewayTrips) {
    const t = r.gatewayTrips;
    log(
      `  gateway round trips: ${fmt(t.produceRequests)} Kafka produce requests (${(t.produceRequests / r.events).toFixed(3)} per event, ${(t.producedMessages / Math.max(1, t.produceRequests)).toFixed(2)} messages each), ${fmt(t.limiterCalls)} limiter script calls (${(t.limiterCalls / r.events).toFixed(3)} per event)`,
    );
  }
  if (r.statements) {
    log(`  top statements (pg_stat_statements, by total time): calls/${r.events > 0 ? 'event' : 'second'}, mean µs, query`);
    for (const s of r.statements) log(`    ${s.calls_per_event.toFixed(3).padStart(7)} ${fmt(s.mean_us).padStart(6)}  ${s.query}`);
  }
}

await main();
