/**
 * bench:notify: tile transitions at a steady rate, made by events posted to
 * /ingest (gateway, rule engine, tile-changes, notification service; each
 * event flips one of ten up_down tiles), each fanned out to three local
 * webhook receivers; prints deliveries/s and /ingest-201-to-receiver latency
 * p50/p99; before that, the service's capacity on a burst of transitions produced
 * straight to the tile-changes topic, and the same run's bare HTTP POST rate
 * to the same receivers (keep-alive, 32 at a time) as the baseline. The steady
 * rate is at most half that capacity (--rate auto; queueing at saturation is
 * not latency), and the machine's calibration (bench/shared/calibration.ts) is printed.
 *
 *   pnpm bench:notify [--rate auto|<events/s>] [--seconds 15] [--warmup 5] [--profile] [--no-calibration]
 *
 * The measured phase follows a warm-up at the same rate whose deliveries are
 * drained first and left out of the figures.
 *
 * --profile: the notification service writes a V8 CPU profile to the system
 * temp dir on exit (summarise it with bench/ingest/profile-summary.ts).
 *
 * Targets: p99 <= 500 ms at <= 0.5 x capacity; capacity (deliveries/s) >= 0.3 x the bare POST rate.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import {
  envelope,
  freePort,
  provisionProject,
  request,
  spawnService,
  testKafka,
  type ServiceProcess,
  TEST_ADMIN_TOKEN,
  TEST_KAFKA_BROKERS,
  TEST_SECRETS_KEY,
  localDatabaseUrl,
  localRedisUrl,
} from '@pulseboard/test-kit';
import { assertAllAccepted, driveIngest, percentile } from '../shared/ingest-driver.ts';
import { cpuSeconds } from '../shared/process-cpu.ts';
import { calibrate, calibrationLine, type Calibration } from '../shared/calibration.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: 'auto' },
    'no-calibration': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const RECEIVERS = 3;
const TILES = 10;
const DATABASE_URL = process.env.NOTIFY_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_notify_bench');
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const log = (line = '') => console.log(line);
const env = {
  LOG_LEVEL: 'warn',
  DATABASE_URL,
  REDIS_URL: localRedisUrl(6),
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
  TOPIC_EVENTS: `bench.notify.${run}.events`,
  TOPIC_TILE_CHANGES: `bench.notify.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.notify.${run}.rule-outcomes`,
  TOPIC_NOTIFICATION_REQUESTS: `bench.notify.${run}.requests`,
  TOPIC_NOTIFICATION_OUTCOMES: `bench.notify.${run}.outcomes`,
  TOPIC_NOTIFICATIONS_DLQ: `bench.notify.${run}.dlq`,
  // Strong generated secrets: services refuse weak ones.
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SECRETS_KEY: TEST_SECRETS_KEY,
  MIGRATE_ON_START: 'false',
  WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
  NOTIFICATION_GROUP_ID: `bench-notify-${run}`,
  NOTIFICATION_HTTP_PORT: '0',
  // 20,000+ requests in a run (and runs in the same hour): the global and account hourly limits must not refuse them.
  GLOBAL_HOURLY_LIMIT: '1000000000',
  DEFAULT_ACCOUNT_HOURLY_LIMIT: '1000000000',
  // Tuning to try without editing: BENCH_NOTIFY_ENV='{"NOTIFY_WORKERS":"3"}'.
  ...(JSON.parse(process.env.BENCH_NOTIFY_ENV ?? '{}') as Record<string, string>),
};

interface Arrival {
  at: number;
  /** The event that made the transition (null for time-driven ones). */
  eventId: number | null;
  /** When the rule engine made the transition (the stage boundary between the engine and the notification service). */
  changedAt: number;
}

/** A webhook receiver that records when each delivery arrived (by webhook-id) and for which event. */
async function receiver(arrivals: Map<string, Arrival>) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const id = req.headers['webhook-id'];
      if (typeof id === 'string') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { event_id?: number | null; changed_at?: string } };
        arrivals.set(`${id}@${req.socket.localPort}`, { at, eventId: body.data?.event_id ?? null, changedAt: Date.parse(body.data?.changed_at ?? '') });
      }
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
  execFileSync('psql', [
    DATABASE_URL.replace(/\/[^/]*$/, '/postgres'),
    '-qc',
    `DROP DATABASE IF EXISTS ${new URL(DATABASE_URL).pathname.slice(1)} WITH (FORCE)`,
  ]);
  await migrateAll(DATABASE_URL, root);
  const calibration: Calibration = args['no-calibration'] ? { fastifyUs: NaN, kafkaClientUs: NaN, kafkaBrokerUs: NaN } : await calibrate(env.KAFKA_BROKERS);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const processes: ServiceProcess[] = [];
  const db = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const arrivals = new Map<string, Arrival>();
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, () => receiver(arrivals)));
  // The receivers are local: their exact addresses and ports are the only loopback targets allowed.
  const allowed = { NOTIFY_ALLOW_TARGETS: receivers.map((r) => new URL(r.url).host).join(',') };
  try {
    const port = await freePort();
    processes.push(await spawnService('gateway', { ...env, ...allowed, GATEWAY_PORT: String(port), GATEWAY_HOST: '127.0.0.1' }));
    const gateway = `http://127.0.0.1:${port}`;
    const big = 1_000_000_000;
    const project = await provisionProject(gateway, env.ADMIN_TOKEN, { burstLimit: big, hourlyLimit: big, monthlyQuota: big });
    const services: number[] = [];
    for (const r of receivers) {
      const res = await request(`${gateway}/api/v1/notifications`, {
        token: project.userToken,
        body: { name: r.url, type: 'webhook', config: { url: `${r.url}/hook` } },
      });
      services.push(res.body.data.id);
    }
    const tiles: number[] = [];
    for (let t = 0; t < TILES; t++) {
      const res = await request(`${gateway}/api/v1/tiles`, {
        token: project.apiKey,
        body: {
          name: `tile ${t}`,
          kind: 'uptime',
          rule: { filter: { name: `svc-${t}` }, evaluation: { kind: 'up_down', attribute: 'is_up' } },
          notification_service_ids: services,
        },
      });
      tiles.push(res.body.data.id);
    }
    const engineGroup = `bench-notify-engine-${run}`;
    processes.push(await spawnService('rule-engine', { ...env, RULE_ENGINE_GROUP_ID: engineGroup, RULE_ENGINE_HTTP_PORT: '0' }));
    const profiles = join(tmpdir(), 'pulseboard-notify-profiles');
    if (args.profile) log(`notification CPU profile goes to ${profiles}`);
    const notification = await spawnService(
      'notification',
      { ...env, ...allowed },
      { nodeArgs: args.profile ? ['--cpu-prof', '--cpu-prof-dir', profiles] : [] },
    );
    processes.push(notification);
    const notificationCpu = () => cpuSeconds(notification.child.pid);

    const baseline = await barePostRate(
      receivers.map((r) => `${r.url}/bare`),
      5,
    );

    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    // Capacity: a burst of transitions at once, drained as fast as the service can.
    const burst = 5000;
    arrivals.clear();
    const burstStart = Date.now();
    const burstCpuAtStart = notificationCpu();
    for (let start = 0; start < burst; start += 1000) {
      await producer.send({
        topic: env.TOPIC_TILE_CHANGES,
        acks: -1,
        messages: Array.from({ length: 1000 }, (_, i) => {
          const position = 10_000_000 + start + i + 1;
          const up = position % 2 === 0;
          return {
            key: project.projectKey,
            value: JSON.stringify({
              position,
              tile_id: tiles[position % TILES],
              project_key: project.projectKey,
              tile_name: 't',
              status: up ? 'ok' : 'critical',
              previous_status: up ? 'critical' : 'ok',
              value: up,
              previous_value: !up,
              version: position,
              event_id: position,
              changed_at: new Date().toISOString(),
              cause: 'event',
            }),
          };
        }),
      });
    }
    while (arrivals.size < burst * RECEIVERS && Date.now() < burstStart + 60_000) await new Promise((r) => setTimeout(r, 50));
    const capacity = arrivals.size / ((Math.max(...[...arrivals.values()].map((a) => a.at)) - burstStart) / 1000);
    await producer.disconnect();
    const capacityLine = `capacity (a burst of ${burst} transitions, first, before any other load): ${Math.round(capacity)} deliveries/s, notification service CPU ${Math.round(((notificationCpu() - burstCpuAtStart) / arrivals.size) * 1e6)} µs per delivery`;
    arrivals.clear();
    // p99s at no more than half the capacity just measured: each event makes one transition, RECEIVERS deliveries.
    const RATE = args.rate === 'auto' ? Math.max(TILES, Math.floor(capacity / 2 / RECEIVERS)) : Number(args.rate);

    // Event n flips tile n % 10 (up, down, up, ...): one transition per event, one delivery per receiver.
    const flip = (n: number) => ({
      apiKey: project.apiKey,
      body: envelope(project.projectKey, { type: 'uptime', name: `svc-${n % TILES}`, attributes: { is_up: Math.floor(n / TILES) % 2 === 0 } }),
    });
    const eventsEnd = async () => (await admin.fetchTopicOffsets(env.TOPIC_EVENTS)).reduce((sum, p) => sum + Number(p.high), 0);
    const applied = async () =>
      Number(
        (await db.query('SELECT coalesce(sum(next_offset), 0) AS n FROM rule_engine_offsets WHERE group_id = $1 AND next_offset > 0', [engineGroup])).rows[0].n,
      );
    const engineCaughtUp = async () => {
      const end = await eventsEnd();
      while ((await applied()) < end) await new Promise((r) => setTimeout(r, 50));
    };
    const lastPosition = async () =>
      Number((await db.query('SELECT coalesce(max(id), 0) AS p FROM tile_state_history WHERE project_key = $1', [project.projectKey])).rows[0].p);

    // Warm-up: the same load, left out of the figures (a cold service's JIT, connections and pools are not its steady state).
    const warmEvents = Math.round((RATE * WARMUP) / (2 * TILES)) * 2 * TILES;
    if (warmEvents > 0) {
      assertAllAccepted(await driveIngest(gateway, RATE, warmEvents / RATE, flip));
      await engineCaughtUp();
      const drained = Date.now() + 60_000;
      while (Number((await db.query("SELECT count(*) AS n FROM notification_deliveries WHERE status = 'pending'")).rows[0].n) > 0 && Date.now() < drained)
        await new Promise((r) => setTimeout(r, 100));
    }
    const measuredFrom = await lastPosition();
    arrivals.clear();
    const cpuAtStart = notificationCpu();

    const ingest = await driveIngest(gateway, RATE, SECONDS, (n) => flip(n + warmEvents));
    assertAllAccepted(ingest);
    const total = ingest.answeredAt.size;
    // Concurrent requests may reach Kafka out of their timestamps' order; an event older than the
    // one its tile shows changes nothing (CONTRACT Tiles). The transitions are what the engine made,
    // counted once it has read every event.
    await engineCaughtUp();
    const transitions = Number(
      (
        await db.query('SELECT count(*) AS n FROM tile_state_history WHERE project_key = $1 AND status <> previous_status AND id > $2', [
          project.projectKey,
          measuredFrom,
        ])
      ).rows[0].n,
    );
    const expected = transitions * RECEIVERS;
    // Only deliveries of the measured events count: the warm-up's last transitions can still be on
    // their way to the notification service when its pending deliveries read 0, and arrive after
    // the clear above (they would stand in for measured deliveries that never came).
    const measured = () => [...arrivals.values()].filter((a) => a.eventId !== null && ingest.answeredAt.has(a.eventId));
    const deadline = Date.now() + 60_000;
    while (measured().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const steadyCpu = notificationCpu() - cpuAtStart;
    const times = measured();
    const lateFromWarmUp = arrivals.size - times.length;
    const first = Math.min(...ingest.answeredAt.values());
    const finished = Math.max(...times.map((a) => a.at));
    const latencies = times.map((a) => a.at - ingest.answeredAt.get(a.eventId!)!);
    // Where the time goes: /ingest 201 to the engine's transition, then the transition to the receiver.
    const toEngine = times.map((a) => a.changedAt - ingest.answeredAt.get(a.eventId!)!);
    const toReceiver = times.map((a) => a.at - a.changedAt);
    const rate = times.length / ((finished - first) / 1000);
    if (!args['no-calibration']) log(calibrationLine(calibration));
    log(capacityLine);
    log(
      `bench:notify: ${RATE} events/s to /ingest for ${SECONDS} s after ${(warmEvents / RATE).toFixed(1)} s of warm-up (${total} answered 201), ${transitions} tile transitions (${total - transitions} events came after a newer one of their tile and changed nothing), each to ${RECEIVERS} webhook receivers (${expected} deliveries)`,
    );
    log(
      `delivered ${times.length}/${expected} at ${Math.round(rate)} deliveries/s; /ingest 201 to receiver p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (target p99 <= 500 ms)${lateFromWarmUp > 0 ? `; ${lateFromWarmUp} deliveries of warm-up events arrived meanwhile, left out` : ''}`,
    );
    log(
      `  notification service CPU ${Math.round((steadyCpu / arrivals.size) * 1e6)} µs per delivery (the warm-up's late ones included: the CPU was spent on them too)`,
    );
    log(
      `  of which /ingest 201 to the engine's transition p50 ${percentile(toEngine, 50)} ms, p99 ${percentile(toEngine, 99)} ms; transition to receiver p50 ${percentile(toReceiver, 50)} ms, p99 ${percentile(toReceiver, 99)} ms`,
    );

    log(`offered ${RATE * RECEIVERS} deliveries/s = ${((RATE * RECEIVERS) / capacity).toFixed(2)} of the capacity (p99s count at <= 0.5)`);
    log(
      `bare POST to the same receivers: ${Math.round(baseline)} requests/s; notification service at capacity ${(capacity / baseline).toFixed(2)} of it (target >= 0.3); ${(rate / baseline).toFixed(2)} at the offered rate`,
    );
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    for (const r of receivers) r.server.close();
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(`bench.notify.${run}.`));
    await admin.deleteTopics({ topics: mine }).catch(() => undefined);
    await admin.disconnect();
    await db.end();
  }
}

await main();
