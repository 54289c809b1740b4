/**
 * bench:notify: tile transitions at a steady rate, each fanned out to three
 * local webhook receivers by the notification service; prints deliveries/s
 * and produce-to-receiver latency p50/p99, and the same run's bare HTTP POST
 * rate to the same receivers (keep-alive, 32 at a time) as the baseline.
 *
 *   pnpm bench:notify [--rate 1000] [--seconds 15]
 *
 * Transitions are produced straight to the tile-changes topic (what the rule
 * engine's relay does after its commit); bench:rules measures /ingest to that
 * point. Targets: p99 <= 500 ms; deliveries/s >= 0.3 x the bare POST rate.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { migrateAll } from '@pulseboard/db';
import { freePort, provisionProject, request, spawnService, testKafka, type ServiceProcess } from '@pulseboard/test-kit';

const { values: args } = parseArgs({ options: { rate: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '15' } } });
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const RECEIVERS = 3;
const TILES = 10;
const DATABASE_URL = process.env.NOTIFY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pulseboard_notify_bench';
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const log = (line = '') => console.log(line);
const env = {
  LOG_LEVEL: 'warn',
  DATABASE_URL,
  REDIS_URL: 'redis://127.0.0.1:6379/6',
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  TOPIC_EVENTS: `bench.notify.${run}.events`,
  TOPIC_TILE_CHANGES: `bench.notify.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.notify.${run}.rule-outcomes`,
  TOPIC_NOTIFICATION_REQUESTS: `bench.notify.${run}.requests`,
  TOPIC_NOTIFICATION_OUTCOMES: `bench.notify.${run}.outcomes`,
  TOPIC_NOTIFICATIONS_DLQ: `bench.notify.${run}.dlq`,
  ADMIN_TOKEN: `bench-${run}`,
  MIGRATE_ON_START: 'false',
  WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
  NOTIFICATION_GROUP_ID: `bench-notify-${run}`,
  NOTIFICATION_HTTP_PORT: '0',
  NOTIFY_ALLOW_LOOPBACK: 'true',
};

/** A webhook receiver that records when each delivery arrived (by webhook-id). */
async function receiver(arrivals: Map<string, number>) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (typeof id === 'string') arrivals.set(`${id}@${req.socket.localPort}`, Date.now());
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** The baseline: plain POSTs to the same receivers, keep-alive, 32 in flight, for `seconds`. */
async function barePostRate(urls: string[], seconds: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const body = JSON.stringify({ type: 'tile.status_changed', data: { tile_id: 1, status: 'critical' } });
  await Promise.all(
    Array.from({ length: 32 }, async (_, lane) => {
      while (Date.now() < until) {
        await new Promise<void>((resolve, reject) => {
          const req = http.request(urls[(lane + done) % urls.length]!, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          });
          req.on('error', reject);
          req.end(body);
        });
        done++;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

async function main(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL } });
  execFileSync('psql', [DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), '-qc', `DROP DATABASE IF EXISTS ${new URL(DATABASE_URL).pathname.slice(1)} WITH (FORCE)`]);
  await migrateAll(DATABASE_URL, root);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const processes: ServiceProcess[] = [];
  const arrivals = new Map<string, number>();
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, () => receiver(arrivals)));
  try {
    const port = await freePort();
    processes.push(await spawnService('gateway', { ...env, GATEWAY_PORT: String(port), GATEWAY_HOST: '127.0.0.1' }));
    const gateway = `http://127.0.0.1:${port}`;
    const project = await provisionProject(gateway, env.ADMIN_TOKEN);
    const services: number[] = [];
    for (const r of receivers) {
      const res = await request(`${gateway}/api/v1/notifications`, { token: project.userToken, body: { name: r.url, type: 'webhook', config: { url: `${r.url}/hook` } } });
      services.push(res.body.data.id);
    }
    const tiles: number[] = [];
    for (let t = 0; t < TILES; t++) {
      const res = await request(`${gateway}/api/v1/tiles`, { token: project.apiKey, body: { name: `tile ${t}`, kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'up' } }, notification_service_ids: services } });
      tiles.push(res.body.data.id);
    }
    processes.push(await spawnService('notification', env));

    const baseline = await barePostRate(receivers.map((r) => `${r.url}/bare`), 5);
    arrivals.clear();

    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const sentAt = new Map<number, number>();
    const started = Date.now();
    let sent = 0;
    const total = RATE * SECONDS;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
      const messages = [];
      for (; sent < due; sent++) {
        const position = sent + 1;
        const up = sent % 2 === 0;
        const change = { position, tile_id: tiles[sent % TILES], project_key: project.projectKey, tile_name: `tile ${sent % TILES}`, status: up ? 'ok' : 'critical', previous_status: up ? 'critical' : 'ok', value: up, previous_value: !up, version: position, event_id: position, changed_at: new Date().toISOString(), cause: 'event' };
        sentAt.set(position, Date.now());
        messages.push({ key: project.projectKey, value: JSON.stringify(change) });
      }
      if (messages.length > 0) await producer.send({ topic: env.TOPIC_TILE_CHANGES, acks: -1, messages });
      await new Promise((r) => setTimeout(r, 5));
    }
    const expected = total * RECEIVERS;
    const deadline = Date.now() + 60_000;
    while (arrivals.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const finished = Math.max(...arrivals.values());

    const latencies = [...arrivals].map(([key, at]) => at - sentAt.get(Number(/^dlv_(\d+)_/.exec(key)![1]))!).sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? NaN;
    const rate = arrivals.size / ((finished - started) / 1000);
    log(`bench:notify: ${RATE} transitions/s for ${SECONDS} s, each to ${RECEIVERS} webhook receivers (${expected} deliveries)`);
    log(`delivered ${arrivals.size}/${expected} at ${Math.round(rate)} deliveries/s; produce-to-receiver p50 ${at(50)} ms, p99 ${at(99)} ms (target p99 <= 500 ms)`);

    // Capacity: a burst of transitions at once, drained as fast as the service can.
    const burst = 5000;
    arrivals.clear();
    const burstStart = Date.now();
    for (let start = 0; start < burst; start += 1000) {
      await producer.send({
        topic: env.TOPIC_TILE_CHANGES,
        acks: -1,
        messages: Array.from({ length: 1000 }, (_, i) => {
          const position = total + start + i + 1;
          const up = position % 2 === 0;
          return { key: project.projectKey, value: JSON.stringify({ position, tile_id: tiles[position % TILES], project_key: project.projectKey, tile_name: 't', status: up ? 'ok' : 'critical', previous_status: up ? 'critical' : 'ok', value: up, previous_value: !up, version: position, event_id: position, changed_at: new Date().toISOString(), cause: 'event' }) };
        }),
      });
    }
    while (arrivals.size < burst * RECEIVERS && Date.now() < burstStart + 60_000) await new Promise((r) => setTimeout(r, 50));
    const capacity = arrivals.size / ((Math.max(...arrivals.values()) - burstStart) / 1000);
    await producer.disconnect();
    log(`capacity (a burst of ${burst} transitions): ${Math.round(capacity)} deliveries/s`);
    log(`bare POST to the same receivers: ${Math.round(baseline)} requests/s; ratio ${(capacity / baseline).toFixed(2)} at capacity, ${(rate / baseline).toFixed(2)} at the offered rate (target >= 0.3)`);
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    for (const r of receivers) r.server.close();
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(`bench.notify.${run}.`));
    await admin.deleteTopics({ topics: mine }).catch(() => undefined);
    await admin.disconnect();
  }
}

await main();
