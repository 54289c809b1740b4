/**
 * bench:client: events/s through @pulseboard/client (send() in a loop, then
 * close()) against a bare loop of fetch POSTs of batches of 100 to the same
 * gateway, in the same run, alternating; printed as a ratio (target >= 0.9).
 * Then the client's memory with 1,000,000 events queued.
 *
 *   pnpm bench:client [--events 100000] [--rounds 4] [--concurrency 4] [--queued 1000000]
 *   (--rounds 0: the memory figure only)
 *
 * Both sides send the same events: batches of 100, `concurrency` in flight,
 * one Idempotency-Key each. The client runs twice: as configured by default
 * (gzip above 16 KiB, so every 23 KB batch here is gzipped) and with gzip off.
 * The bare loop runs twice too: plain bodies (the target's baseline) and
 * gzipped as a hand-written loop would (zlib level 1 on the thread pool, as
 * the client does on Node), so the client's own cost is also shown like for
 * like. Each round runs the four phases in a rotated order; a ratio is taken
 * within each round (the phases ran back to back, under the same load from
 * whatever else runs on the machine) and the median of the rounds' ratios is
 * the figure; means and medians of the rates are printed too.
 * BENCH_GATEWAY_PROF=DIR: the gateway writes a --cpu-prof there.
 * Starts what it needs like bench:ingest: infra, its own database
 * (pulseboard_client_bench), Redis database 4, a topic of its own, a gateway
 * process (no rule engine: webhooks answer 202 at once).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { EventSender, type SenderOptions } from '@pulseboard/client';
import {
  freePort,
  provisionProject,
  SOURCE_NODE_ARGS,
  waitFor,
  TEST_ADMIN_TOKEN,
  TEST_KAFKA_BROKERS,
  TEST_SECRETS_KEY,
  localDatabaseUrl,
  localRedisUrl,
} from '@pulseboard/test-kit';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
    queued: { type: 'string', default: '1000000' },
  },
});
const EVENTS = Number(args.events);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const QUEUED = Number(args.queued);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_client_bench');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? localRedisUrl(4);
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line = '') => console.log(line);

const event = (i: number) => ({
  type: 'metric' as const,
  name: 'cpu_usage',
  timestamp: new Date().toISOString(),
  severity: 'info' as const,
  source: 'web-1',
  labels: ['prod', 'eu-west'],
  attributes: { value: 42.5 + i, unit: 'percent', threshold: 90, host: 'web-1', tags: ['a', 'b'] },
});

async function startGateway(port: number, topic: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_GATEWAY_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_GATEWAY_PROF}`] : []),
      ...SOURCE_NODE_ARGS,
      'services/gateway/src/main.ts',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL,
        REDIS_URL,
        KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
        TOPIC_EVENTS: topic,
        GATEWAY_PORT: String(port),
        GATEWAY_HOST: '127.0.0.1',
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        SECRETS_KEY: TEST_SECRETS_KEY,
        LOG_LEVEL: 'info',
        MIGRATE_ON_START: 'false',
        WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
        GLOBAL_HOURLY_LIMIT: '2000000000',
        DEFAULT_ACCOUNT_HOURLY_LIMIT: '2000000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let started = false;
  const lines: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (lines.length < 100 && line !== '') lines.push(line);
      if (line.includes('"event":"gateway_started"')) started = true;
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  await waitFor(() => started || (child.exitCode !== null ? Promise.reject(new Error(`gateway exited:\n${lines.join('\n')}`)) : false), {
    timeoutMs: 60_000,
    what: 'gateway to start',
  });
  return child;
}

const gzipLevel1 = promisify((text: string, cb: (error: Error | null, out: Buffer) => void) => gzip(text, { level: 1 }, cb));

/** The baseline: `concurrency` loops, each building a batch of 100 and POSTing it with fetch (gzipped when asked) until EVENTS are sent. */
async function bareLoop(url: string, apiKey: string, gzipped = false): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const from = next;
        next = Math.min(EVENTS, next + 100);
        const text = JSON.stringify({ events: Array.from({ length: next - from }, (_, i) => event(from + i)) });
        const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
        if (gzipped) headers['content-encoding'] = 'gzip';
        const res = await fetch(`${url}/api/v1/webhooks`, { method: 'POST', headers, body: gzipped ? await gzipLevel1(text) : text });
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`bare loop: ${res.status}`);
      }
    }),
  );
  return EVENTS / ((performance.now() - started) / 1000);
}

async function throughClient(url: string, apiKey: string, extra: Partial<SenderOptions>): Promise<number> {
  const sender = new EventSender({ url, apiKey, concurrency: CONCURRENCY, ...extra });
  const started = performance.now();
  for (let i = 0; i < EVENTS; i++) await sender.send(event(i));
  const stats = await sender.close();
  const rate = EVENTS / ((performance.now() - started) / 1000);
  if (stats.sent !== EVENTS) throw new Error(`client: ${JSON.stringify(stats)}`);
  return rate;
}

/** Memory of EVENTS queued and unsendable (a port nobody listens on; requests fail and wait to be retried). */
async function queuedMemory(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = () => {
    gc?.();
    gc?.();
    return process.memoryUsage();
  };
  const before = settle();
  const port = await freePort();
  const sender = new EventSender({
    url: `http://127.0.0.1:${port}`,
    apiKey: 'evk_none',
    maxBufferEvents: QUEUED,
    maxBufferBytes: 4 * 1024 * 1024 * 1024,
    retry: { baseMs: 60_000, maxMs: 60_000 },
  });
  const started = performance.now();
  for (let i = 0; i < QUEUED; i++) await sender.send(event(i));
  const queueMs = performance.now() - started;
  const after = settle();
  const stats = sender.stats();
  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  log(
    `  ${QUEUED.toLocaleString('en')} events queued in ${(queueMs / 1000).toFixed(1)} s (${Math.round(QUEUED / (queueMs / 1000)).toLocaleString('en')}/s); pending ${stats.pending.toLocaleString('en')}, ${mb(stats.pendingBytes)} MB of event JSON`,
  );
  log(
    `  heap used +${mb(after.heapUsed - before.heapUsed)} MB (${((after.heapUsed - before.heapUsed) / QUEUED).toFixed(0)} bytes/event), RSS +${mb(after.rss - before.rss)} MB${gc === undefined ? ' (no --expose-gc: figures include garbage)' : ''}`,
  );
}

/** The four phases, ROUNDS times, against a gateway of its own. */
async function throughput(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL, REDIS_URL } });
  execFileSync(process.execPath, [...SOURCE_NODE_ARGS, 'packages/db/src/migrate-cli.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, DATABASE_URL },
  });
  const port = await freePort();
  const gateway = await startGateway(port, `bench.client.${randomUUID().slice(0, 8)}`);
  try {
    const url = `http://127.0.0.1:${port}`;
    const big = 2_000_000_000;
    const project = await provisionProject(url, TEST_ADMIN_TOKEN, {
      projectKey: `bench-${randomUUID().slice(0, 8)}`,
      burstLimit: big,
      hourlyLimit: big,
      monthlyQuota: big,
    });
    log(
      `  event: ${JSON.stringify(event(0)).length} bytes; batch of 100: ${JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(i)) }).length} bytes`,
    );
    // Warm-up: connections, JIT, the gateway's id blocks.
    await bareLoop(url, project.apiKey);
    const phases = {
      bare: () => bareLoop(url, project.apiKey),
      bareGzip: () => bareLoop(url, project.apiKey, true),
      client: () => throughClient(url, project.apiKey, {}),
      clientPlain: () => throughClient(url, project.apiKey, { gzipAboveBytes: false }),
    };
    type Phase = keyof typeof phases;
    const order = Object.keys(phases) as Phase[];
    const rows: Record<Phase, number[]> = { bare: [], bareGzip: [], client: [], clientPlain: [] };
    for (let r = 0; r < ROUNDS; r++) {
      // Rotated each round: no phase always runs first or after the same one.
      for (let i = 0; i < order.length; i++) {
        const phase = order[(i + r) % order.length]!;
        rows[phase].push(await phases[phase]());
      }
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };
    const n = (x: number) => Math.round(x).toLocaleString('en');
    const show = (xs: number[]) => `mean ${n(mean(xs)).padStart(6)}, median ${n(median(xs)).padStart(6)} events/s  (${xs.map(n).join(', ')})`;
    // Per round, a phase against the other in the same round (next to each other in time, under the same load), then the median of those.
    const ratio = (a: Phase, b: Phase) => {
      const paired = rows[a].map((x, r) => x / rows[b][r]!);
      return `median of rounds' ratios ${median(paired).toFixed(2)} (${paired.map((x) => x.toFixed(2)).join(' ')}); of means ${(mean(rows[a]) / mean(rows[b])).toFixed(2)}`;
    };
    log(`  bare loop, plain bodies             ${show(rows.bare)}`);
    log(`  bare loop, gzip level 1             ${show(rows.bareGzip)}`);
    log(`  client, defaults (gzip)             ${show(rows.client)}`);
    log(`  client, gzip off                    ${show(rows.clientPlain)}`);
    log(`  client defaults / bare plain: ${ratio('client', 'bare')}`);
    log(`  client gzip off / bare plain: ${ratio('clientPlain', 'bare')}`);
    log(`  client defaults / bare gzip:  ${ratio('client', 'bareGzip')}   (like for like)`);
    log('  target: ratio >= 0.9');
  } finally {
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  log(
    `bench:client: ${EVENTS.toLocaleString('en')} events per phase, ${ROUNDS} round(s), ${CONCURRENCY} requests in flight; node ${process.version}, ${(await import('node:os')).cpus().length} cores`,
  );
  if (ROUNDS > 0) await throughput();
  log('memory:');
  await queuedMemory();
}

await main();
process.exit(0);
