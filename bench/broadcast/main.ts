/**
 * bench:broadcast: 1,000 WebSocket clients on one broadcast instance (10 per
 * project over 100 projects), 1,000 tile changes/s produced to the
 * tile-changes topic; prints produce-to-client latency p50/p99, messages/s
 * delivered and the instance's memory at start and end. Baseline in the same
 * run: a bare @fastify/websocket server (bare-server.ts) broadcasting the same
 * changes to the same number of clients (a ratio).
 *
 *   pnpm bench:broadcast [--clients 1000] [--projects 100] [--rate 1000] [--seconds 20]
 *
 * The latency starts when the change is handed to Kafka (the engine's relay
 * does the same after its commit); bench:rules measures /ingest to that point.
 * Targets: p99 <= 100 ms end to end; delivery >= 0.5 x the bare server's.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { migrateAll } from '@pulseboard/db';
import { freePort, provisionProject, spawnService, testKafka, type ServiceProcess } from '@pulseboard/test-kit';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    projects: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
  },
});
const CLIENTS = Number(args.clients);
const PROJECTS = Number(args.projects);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const DATABASE_URL = process.env.BROADCAST_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pulseboard_broadcast_bench';
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const log = (line = '') => console.log(line);
const env = {
  LOG_LEVEL: 'warn',
  DATABASE_URL,
  REDIS_URL: 'redis://127.0.0.1:6379/5',
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  TOPIC_EVENTS: `bench.broadcast.${run}.events`,
  TOPIC_TILE_CHANGES: `bench.broadcast.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.broadcast.${run}.rule-outcomes`,
  ADMIN_TOKEN: `bench-${run}`,
  MIGRATE_ON_START: 'false',
  WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
};

interface Figures {
  p50: number;
  p99: number;
  delivered: number;
  perSecond: number;
}

/** Clients that record the latency of every change they get (now - changed_at, one clock). */
async function connectClients(url: string, subscribeFor: (i: number) => { headers?: Record<string, string>; project: string }) {
  const latencies: number[] = [];
  let delivered = 0;
  const sockets: WebSocket[] = [];
  for (let start = 0; start < CLIENTS; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, CLIENTS - start) }, async (_, k) => {
        const { headers, project } = subscribeFor(start + k);
        const ws = new WebSocket(url, headers === undefined ? {} : { headers });
        sockets.push(ws);
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.startsWith('{"type":"change"')) {
            delivered++;
            latencies.push(Date.now() - Date.parse((JSON.parse(text) as { change: { changed_at: string } }).change.changed_at));
          }
        });
        await once(ws, 'open');
        const subscribed = new Promise<void>((resolve) => ws.on('message', (d) => d.toString().includes('"type":"subscribed"') && resolve()));
        ws.send(JSON.stringify({ type: 'subscribe', project }));
        await subscribed;
      }),
    );
  }
  return {
    reset: () => {
      latencies.length = 0;
      delivered = 0;
    },
    figures: (seconds: number): Figures => {
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
      return { p50: at(50), p99: at(99), delivered, perSecond: delivered / seconds };
    },
    close: () => sockets.forEach((s) => s.terminate()),
  };
}

/** Sends RATE changes per second for SECONDS through `emit`, spread over the projects. */
async function drive(projects: string[], emit: (lines: { key: string; line: string }[]) => Promise<void>): Promise<void> {
  const positions = new Map<string, number>();
  const started = Date.now();
  let sent = 0;
  const total = RATE * SECONDS;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
    const batch: { key: string; line: string }[] = [];
    for (; sent < due; sent++) {
      const project = projects[sent % projects.length]!;
      const position = (positions.get(project) ?? 0) + 1;
      positions.set(project, position);
      const change = { position, tile_id: 1 + (sent % 50), project_key: project, tile_name: 'CPU', status: sent % 3 === 0 ? 'warning' : 'ok', previous_status: 'ok', value: sent % 100, previous_value: 0, version: position, event_id: sent + 1, changed_at: new Date().toISOString(), cause: 'event' };
      batch.push({ key: project, line: JSON.stringify(change) });
    }
    if (batch.length > 0) await emit(batch);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function rssOf(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const match = /process_resident_memory_bytes (\d+)/.exec(text) ?? /"rss":(\d+)/.exec(text);
  return Number(match?.[1] ?? NaN);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const row = (name: string, f: Figures) => `${name.padEnd(10)} p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ${Math.round(f.perSecond)} messages/s delivered (${f.delivered})`;

async function main(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL } });
  execFileSync('psql', [DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), '-qc', `DROP DATABASE IF EXISTS ${new URL(DATABASE_URL).pathname.slice(1)} WITH (FORCE)`]);
  await migrateAll(DATABASE_URL, root);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES].map((topic) => ({ topic, numPartitions: 6 })), waitForLeaders: true });
  const processes: ServiceProcess[] = [];
  try {
    const gatewayPort = await freePort();
    processes.push(await spawnService('gateway', { ...env, GATEWAY_PORT: String(gatewayPort), GATEWAY_HOST: '127.0.0.1' }));
    const projects: Awaited<ReturnType<typeof provisionProject>>[] = [];
    for (let p = 0; p < PROJECTS; p++) projects.push(await provisionProject(`http://127.0.0.1:${gatewayPort}`, env.ADMIN_TOKEN));
    const keys = projects.map((p) => p.projectKey);
    log(`bench:broadcast: ${CLIENTS} clients over ${PROJECTS} projects, ${RATE} changes/s for ${SECONDS} s (each change goes to ${CLIENTS / PROJECTS} clients)`);

    // Broadcast.
    const port = await freePort();
    processes.push(await spawnService('broadcast', { ...env, BROADCAST_PORT: String(port), BROADCAST_HOST: '127.0.0.1' }));
    const base = `http://127.0.0.1:${port}`;
    const clients = await connectClients(`ws://127.0.0.1:${port}/ws`, (i) => ({ headers: { authorization: `Bearer ${projects[i % PROJECTS]!.apiKey}` }, project: keys[i % PROJECTS]! }));
    const memStart = await rssOf(`${base}/metrics`);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    clients.reset();
    await drive(keys, async (batch) => void (await producer.send({ topic: env.TOPIC_TILE_CHANGES, acks: 1, messages: batch.map((b) => ({ key: b.key, value: b.line })) })));
    await new Promise((r) => setTimeout(r, 2000));
    const ours = clients.figures(SECONDS);
    const memEnd = await rssOf(`${base}/metrics`);
    clients.close();
    await producer.disconnect();

    // Bare server.
    const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/broadcast/bare-server.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    const [first] = (await once(bare.stdout!, 'data')) as [Buffer];
    const bareUrl = (JSON.parse(first.toString().split('\n')[0]!) as { address: string }).address;
    const bareClients = await connectClients(`${bareUrl.replace('http', 'ws')}/ws`, (i) => ({ project: keys[i % PROJECTS]! }));
    const bareStart = await rssOf(`${bareUrl}/memory`);
    bareClients.reset();
    await drive(keys, async (batch) => void bare.stdin!.write(batch.map((b) => `${b.line}\n`).join('')));
    await new Promise((r) => setTimeout(r, 2000));
    const baseline = bareClients.figures(SECONDS);
    const bareEnd = await rssOf(`${bareUrl}/memory`);
    bareClients.close();
    bare.kill();

    log(row('broadcast', ours) + `, memory ${mb(memStart)} at start, ${mb(memEnd)} at end`);
    log(row('bare', baseline) + `, memory ${mb(bareStart)} at start, ${mb(bareEnd)} at end`);
    log(`ratio (delivered/s): ${(ours.perSecond / baseline.perSecond).toFixed(2)} (target >= 0.5); broadcast p99 ${ours.p99.toFixed(1)} ms from the topic (target <= 100 ms from /ingest, see bench:rules for /ingest to the topic)`);
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await admin.deleteTopics({ topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES] }).catch(() => undefined);
    await admin.disconnect();
  }
}

await main();
