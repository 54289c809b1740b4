/**
 * bench:limiter: the gateway's limiter alone, exact (every request decided by
 * the Lua script in Redis, micro-batched) against leased (LIMIT_LEASES=on:
 * decided from memory while a lease of each counter covers it), on the same
 * Redis in the same run, alternating. Per phase and mode: CPU µs of this
 * process per admitted request (less the driver's own cost, measured alone as
 * the baseline), CPU µs of the Redis server per request (from INFO, so run it
 * on a quiet machine), Redis calls per request, decision latency p50/p99, and
 * leased : exact.
 *
 *   pnpm bench:limiter [--seconds 10] [--warmup 2] [--rounds 2] [--rate 1000]
 *                      [--projects 100] [--concurrency 256] [--phases rate,capacity]
 *
 * Phases: `rate` offers --rate single-event requests a second spread over
 * --projects projects (open loop); `capacity` keeps --concurrency requests in
 * flight (closed loop) and prints the decisions a second. Uses the local
 * Redis (deploy/infra.sh up), database 4, projects of its own with limits
 * nothing reaches; one gateway, so the leased decisions are exact.
 */
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { localRedisUrl } from '@pulseboard/test-kit';
import { revisionKey } from '../../services/gateway/src/auth/revision.ts';
import { Limiter, type LimitEnforcer, type LimitSubject } from '../../services/gateway/src/limits/limiter.ts';
import { LeasedLimiter } from '../../services/gateway/src/limits/leased-limiter.ts';
import { RevisionWatch } from '../../services/gateway/src/limits/revision-watch.ts';
import { createRedisClient } from '../../services/gateway/src/redis-client.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    rate: { type: 'string', default: '1000' },
    projects: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '256' },
    phases: { type: 'string', default: 'rate,capacity' },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const ROUNDS = Number(args.rounds);
const RATE = Number(args.rate);
const CONCURRENCY = Number(args.concurrency);
const PHASES = args.phases.split(',');

type Mode = 'baseline' | 'exact' | 'leased';
interface Figures {
  requests: number;
  admitted: number;
  cpuUs: number;
  redisCpuUs: number;
  calls: number;
  p50: number;
  p99: number;
  seconds: number;
}

// The gateway's own client settings (no auto-pipelining); a single Redis, not a cluster.
const redis = createRedisClient({ REDIS_URL: localRedisUrl(4), REDIS_CLUSTER_NODES: '' }) as ConstructorParameters<typeof RevisionWatch>[0];
const run = randomUUID().slice(0, 8);
const subjects: LimitSubject[] = [];
for (let i = 0; i < Number(args.projects); i++) {
  const projectKey = `bench-lim-${run}-${i}`;
  await redis.set(revisionKey(projectKey), '1', 'EX', 86_400);
  subjects.push({
    projectKey,
    revisionKey: revisionKey(projectKey),
    accountId: 1_000_000 + (i % 10),
    revision: 1,
    limits: { burst: 1e12, projectHourly: 1e12, accountHourly: 1e12, globalHourly: 1e15, monthlyQuota: 1e12 },
  });
}

let exactCalls = 0;
const exact = new Limiter(
  redis,
  async () => 0,
  Date.now,
  () => exactCalls++,
);
const watch = new RevisionWatch(redis, pino({ level: 'silent' }));
await watch.start();
const leased = new LeasedLimiter(redis, async () => 0, watch, Date.now);
const noop: Pick<LimitEnforcer, 'consume'> = { consume: () => new Promise((resolve) => setImmediate(() => resolve({ kind: 'stale' }))) };
const limiters: Record<Mode, Pick<LimitEnforcer, 'consume'>> = { baseline: noop, exact, leased };
const calls = (mode: Mode): number => (mode === 'exact' ? exactCalls : mode === 'leased' ? leased.calls : 0);

async function redisCpuSeconds(): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Offers requests for `seconds`: at RATE a second (open loop), or with CONCURRENCY in flight. */
async function drive(mode: Mode, phase: string, seconds: number): Promise<Figures> {
  const limiter = limiters[mode];
  const latencies: number[] = [];
  let requests = 0;
  let admitted = 0;
  let next = 0;
  const one = async (): Promise<void> => {
    const subject = subjects[next++ % subjects.length]!;
    const started = performance.now();
    requests++;
    const decision = await limiter.consume(subject, 1);
    latencies.push((performance.now() - started) * 1000);
    if (decision.kind === 'allowed' || mode === 'baseline') admitted++;
  };
  const cpu0 = process.cpuUsage();
  const redis0 = await redisCpuSeconds();
  const calls0 = calls(mode);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const pending = new Set<Promise<void>>();
  if (phase === 'rate') {
    // Every 10 ms, the requests due by then.
    let sent = 0;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      for (; sent < due; sent++) {
        const p = one().finally(() => pending.delete(p));
        pending.add(p);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } else {
    const worker = async () => {
      while (performance.now() < end) await one();
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const redisCpu = (await redisCpuSeconds()) - redis0;
  latencies.sort((a, b) => a - b);
  return {
    requests,
    admitted,
    cpuUs: cpu.user + cpu.system,
    redisCpuUs: redisCpu * 1e6,
    calls: calls(mode) - calls0,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    seconds: elapsed,
  };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

for (const phase of PHASES) {
  const label = phase === 'rate' ? `${RATE}/s over ${subjects.length} projects` : `capacity, ${CONCURRENCY} in flight`;
  console.log(`\n## ${phase}: ${label}, ${SECONDS} s x ${ROUNDS} rounds (warm-up ${WARMUP} s each)`);
  console.log('| round | mode | decisions/s | CPU µs/admitted (net of driver) | Redis CPU µs/request | Redis calls/request | p50 µs | p99 µs |');
  console.log('|---|---|---|---|---|---|---|---|');
  const totals: Record<Mode, Figures[]> = { baseline: [], exact: [], leased: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of ['baseline', 'exact', 'leased'] as Mode[]) {
      await drive(mode, phase, WARMUP);
      const f = await drive(mode, phase, SECONDS);
      totals[mode].push(f);
      const base = totals.baseline.at(-1)!;
      const net = f.cpuUs / f.admitted - (mode === 'baseline' ? 0 : base.cpuUs / base.requests);
      console.log(
        `| ${round} | ${mode} | ${fmt(f.requests / f.seconds, 0)} | ${fmt(net)} | ${fmt(f.redisCpuUs / f.requests)} | ${fmt(f.calls / f.requests, 3)} | ${fmt(f.p50, 0)} | ${fmt(f.p99, 0)} |`,
      );
    }
  }
  const mean = (mode: Mode, pick: (f: Figures) => number) => totals[mode].reduce((sum, f) => sum + pick(f), 0) / totals[mode].length;
  const driver = mean('baseline', (f) => f.cpuUs / f.requests);
  const cpu = (mode: Mode) => mean(mode, (f) => f.cpuUs / f.admitted) - driver;
  const redisCpu = (mode: Mode) => mean(mode, (f) => f.redisCpuUs / f.requests);
  const trips = (mode: Mode) => mean(mode, (f) => f.calls / f.requests);
  const rate = (mode: Mode) => mean(mode, (f) => f.requests / f.seconds);
  console.log(
    `leased : exact (means) — CPU/admitted ${fmt(cpu('leased'))} : ${fmt(cpu('exact'))} µs = ${fmt(cpu('leased') / cpu('exact'), 2)}; ` +
      `Redis CPU ${fmt(redisCpu('leased'))} : ${fmt(redisCpu('exact'))} µs = ${fmt(redisCpu('leased') / redisCpu('exact'), 2)}; ` +
      `Redis calls/request ${fmt(trips('leased'), 4)} : ${fmt(trips('exact'), 4)}; decisions/s ${fmt(rate('leased'), 0)} : ${fmt(rate('exact'), 0)}`,
  );
}

await leased.drain();
watch.stop();
redis.disconnect();
