/**
 * bench:broadcast: 1,000 WebSocket clients on one broadcast instance (10 per
 * project over 100 projects), 1,000 tile changes/s made by events posted to
 * /ingest (gateway, rule engine, tile-changes topic, broadcast, one tile per
 * project whose value every event changes); prints /ingest-201-to-client
 * latency p50/p99, messages/s delivered and the instance's memory at start and
 * end. Baseline in the same run: a bare @fastify/websocket server
 * (bare-server.ts) broadcasting as many changes to as many clients (a ratio).
 *
 *   pnpm bench:broadcast [--clients 1000] [--projects 100] [--rate 1000] [--seconds 20] [--tail-rate 10000] [--tail-seconds 10]
 *
 * Targets: p99 <= 100 ms from the 201 to the client; delivery >= 0.5 x the bare server's.
 *
 * Then the live tail (issue 28): with the rule engine stopped, the bench itself
 * produces tile changes (RATE/s, to the same clients) to the tile-changes
 * topic, first alone, then while one more client tails a project that gets
 * --tail-rate events/s straight on the events topic. It prints the tile
 * changes' latency (changed_at to client) p50/p99 of both phases and their
 * ratio, and what the tailing client got (at most 50/s) and was told it
 * skipped. Target: the ratio within noise (tile changes not slowed).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { migrateAll } from '@pulseboard/db';
import { TOPICS } from '@pulseboard/contracts';
import {
  envelope,
  freePort,
  provisionProject,
  request,
  SOURCE_NODE_ARGS,
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

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    projects: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    'tail-rate': { type: 'string', default: '10000' },
    'tail-seconds': { type: 'string', default: '10' },
  },
});
const CLIENTS = Number(args.clients);
const PROJECTS = Number(args.projects);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const TAIL_RATE = Number(args['tail-rate']);
const TAIL_SECONDS = Number(args['tail-seconds']);
const DATABASE_URL = process.env.BROADCAST_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_broadcast_bench');
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const log = (line = '') => console.log(line);
const env = {
  LOG_LEVEL: 'warn',
  DATABASE_URL,
  REDIS_URL: localRedisUrl(5),
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
  TOPIC_EVENTS: `bench.broadcast.${run}.events`,
  TOPIC_TILE_CHANGES: `bench.broadcast.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.broadcast.${run}.rule-outcomes`,
  TOPIC_CONTROL: `bench.broadcast.${run}.control`,
  // Strong generated secrets: services refuse weak ones.
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SECRETS_KEY: TEST_SECRETS_KEY,
  MIGRATE_ON_START: 'false',
  WEBHOOK_OUTCOME_TIMEOUT_MS: '0',
  // 20,000+ requests in a run (and runs in the same hour): the global and account hourly limits must not refuse them.
  GLOBAL_HOURLY_LIMIT: '1000000000',
  DEFAULT_ACCOUNT_HOURLY_LIMIT: '1000000000',
};

interface Figures {
  p50: number;
  p99: number;
  delivered: number;
  perSecond: number;
}

/** Clients that record when each change arrived: its latency from changed_at (one clock), and the arrival by event id. */
async function connectClients(url: string, subscribeFor: (i: number) => { headers?: Record<string, string>; project: string }) {
  const latencies: number[] = [];
  const arrivals: { eventId: number; at: number }[] = [];
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
            const { change } = JSON.parse(text) as { change: { changed_at: string; event_id: number } };
            const now = Date.now();
            latencies.push(now - Date.parse(change.changed_at));
            arrivals.push({ eventId: change.event_id, at: now });
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
    arrivals,
    reset: () => {
      latencies.length = 0;
      arrivals.length = 0;
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

/** Sends RATE changes per second for `seconds` through `emit`, spread over the projects; positions start after `positionBase`. */
async function drive(projects: string[], emit: (lines: { key: string; line: string }[]) => Promise<void>, seconds = SECONDS, positionBase = 0): Promise<void> {
  const positions = new Map<string, number>();
  const started = Date.now();
  let sent = 0;
  const total = RATE * seconds;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
    const batch: { key: string; line: string }[] = [];
    for (; sent < due; sent++) {
      const project = projects[sent % projects.length]!;
      const position = (positions.get(project) ?? positionBase) + 1;
      positions.set(project, position);
      const change = {
        position,
        tile_id: 1 + (sent % 50),
        project_key: project,
        tile_name: 'CPU',
        status: sent % 3 === 0 ? 'warning' : 'ok',
        previous_status: 'ok',
        value: sent % 100,
        previous_value: 0,
        version: position,
        event_id: sent + 1,
        changed_at: new Date().toISOString(),
        cause: 'event',
      };
      batch.push({ key: project, line: JSON.stringify(change) });
    }
    if (batch.length > 0) await emit(batch);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Tile changes produced straight to the topic (no engine: its cost is not the question), alone and
 * then beside a tailed firehose on the events topic; the same clients measure both.
 */
async function tailPhases(options: {
  engine: ServiceProcess;
  clients: Awaited<ReturnType<typeof connectClients>>;
  keys: string[];
  firehose: { projectKey: string; apiKey: string; accountId: number };
  producerKafka: ReturnType<typeof testKafka>;
  url: string;
}) {
  const { clients, keys, firehose } = options;
  await options.engine.kill('SIGTERM');
  const producer = options.producerKafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const emitChanges = async (batch: { key: string; line: string }[]) => {
    const now = new Date().toISOString();
    // changed_at is stamped as the change leaves: latency is the broadcast leg (topic to client).
    const messages = batch.map((b) => ({
      key: b.key,
      value: b.line.replace(/"changed_at":"[^"]*"/, `"changed_at":"${now}"`),
      headers: { 'content-type': 'application/json' },
    }));
    for (let i = 0; i < messages.length; i += 500) await producer.send({ topic: env.TOPIC_TILE_CHANGES, messages: messages.slice(i, i + 500) });
  };
  // Positions far above the history's, so no client drops them as already seen.
  clients.reset();
  await drive(keys, emitChanges, TAIL_SECONDS, 1e9);
  await new Promise((r) => setTimeout(r, 1000));
  const alone = clients.figures(TAIL_SECONDS);

  /** Tile changes as above while the firehose project gets TAIL_RATE events/s on the events topic. */
  const firehosePhase = async (positionBase: number) => {
    clients.reset();
    let produced = 0;
    let firing = true;
    const started = Date.now();
    const fire = (async () => {
      const base = { project_key: firehose.projectKey, account_id: firehose.accountId, type: 'metric' as const, name: 'firehose', attributes: { value: 1 } };
      while (firing) {
        const due = Math.floor(((Date.now() - started) / 1000) * TAIL_RATE);
        const messages = [];
        // At most 500 a send: a stalled loop must not make one request over the broker's size limit.
        const upTo = Math.min(due, produced + 500);
        for (; produced < upTo; produced++) {
          const now = new Date().toISOString();
          messages.push(TOPICS.events.encode({ event: { ...base, id: positionBase + produced, timestamp: now, received_at: now } }));
        }
        if (messages.length > 0) await producer.send({ topic: env.TOPIC_EVENTS, messages });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Rethrown below, after the tile changes: a failed send must not end the process before its cleanup.
    let failure: { error: unknown } | undefined;
    fire.catch((error: unknown) => (failure = { error }));
    await drive(keys, emitChanges, TAIL_SECONDS, positionBase);
    firing = false;
    await fire.catch(() => undefined);
    if (failure !== undefined) throw failure.error;
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 1500)); // the last skip counts (sent each second)
    return { figures: clients.figures(TAIL_SECONDS), produced, seconds };
  };
  // The firehose with nobody tailing: what it costs the machine (broker, producer) without broadcast reading it.
  const untailedPhase = await firehosePhase(1.5e9);

  // One more client tails the firehose project (it is also one of the subscribed projects).
  const tailer = new WebSocket(options.url, { headers: { authorization: `Bearer ${firehose.apiKey}` } });
  let tailed = 0;
  let skipped = 0;
  let tailing!: () => void;
  const ready = new Promise<void>((resolve) => (tailing = resolve));
  tailer.on('message', (data) => {
    const text = data.toString();
    if (text.startsWith('{"type":"event"')) tailed++;
    else if (text.startsWith('{"type":"skipped"')) skipped += (JSON.parse(text) as { count: number }).count;
    else if (text.startsWith('{"type":"tailing"')) tailing();
  });
  await once(tailer, 'open');
  tailer.send(JSON.stringify({ type: 'tail', v: 1, project: firehose.projectKey }));
  await ready;

  const tailedPhase = await firehosePhase(2e9);
  tailer.terminate();
  await producer.disconnect();
  return {
    alone,
    untailed: untailedPhase,
    firehose: tailedPhase.figures,
    produced: tailedPhase.produced,
    firehoseSeconds: tailedPhase.seconds,
    tailed,
    skipped,
  };
}

async function rssOf(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const match = /process_resident_memory_bytes (\d+)/.exec(text) ?? /"rss":(\d+)/.exec(text);
  return Number(match?.[1] ?? NaN);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const row = (name: string, f: Figures) =>
  `${name.padEnd(10)} p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ${Math.round(f.perSecond)} messages/s delivered (${f.delivered})`;

async function main(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL } });
  // The engine reads tile rules within its poll interval; events flow only after that.
  const engineEnv = { ...env, RULE_ENGINE_GROUP_ID: `bench-broadcast-${run}`, RULE_ENGINE_HTTP_PORT: '0' };
  execFileSync('psql', [
    DATABASE_URL.replace(/\/[^/]*$/, '/postgres'),
    '-qc',
    `DROP DATABASE IF EXISTS ${new URL(DATABASE_URL).pathname.slice(1)} WITH (FORCE)`,
  ]);
  await migrateAll(DATABASE_URL, root);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES].map((topic) => ({ topic, numPartitions: 6 })),
    waitForLeaders: true,
  });
  const processes: ServiceProcess[] = [];
  try {
    const gatewayPort = await freePort();
    processes.push(await spawnService('gateway', { ...env, GATEWAY_PORT: String(gatewayPort), GATEWAY_HOST: '127.0.0.1' }));
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    const projects: Awaited<ReturnType<typeof provisionProject>>[] = [];
    const big = 1_000_000_000;
    for (let p = 0; p < PROJECTS; p++)
      projects.push(await provisionProject(gateway, env.ADMIN_TOKEN, { burstLimit: big, hourlyLimit: big, monthlyQuota: big }));
    const keys = projects.map((p) => p.projectKey);
    // One tile per project: every event changes its value.
    for (const p of projects) {
      const res = await request(`${gateway}/api/v1/tiles`, {
        token: p.apiKey,
        body: {
          name: 'CPU',
          kind: 'metric',
          rule: { filter: { type: 'metric' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 1e15, critical: 2e15 } },
        },
      });
      if (res.status !== 201) throw new Error(`tile: ${res.status} ${JSON.stringify(res.body)}`);
    }
    processes.push(await spawnService('rule-engine', engineEnv));
    log(
      `bench:broadcast: ${CLIENTS} clients over ${PROJECTS} projects, ${RATE} changes/s for ${SECONDS} s (each change goes to ${CLIENTS / PROJECTS} clients)`,
    );

    // Broadcast.
    const port = await freePort();
    processes.push(await spawnService('broadcast', { ...env, BROADCAST_PORT: String(port), BROADCAST_HOST: '127.0.0.1' }));
    const base = `http://127.0.0.1:${port}`;
    const clients = await connectClients(`ws://127.0.0.1:${port}/ws`, (i) => ({
      headers: { authorization: `Bearer ${projects[i % PROJECTS]!.apiKey}` },
      project: keys[i % PROJECTS]!,
    }));
    const memStart = await rssOf(`${base}/metrics`);
    // A warm-up round through the whole path, then the measured one.
    const warmUp = await driveIngest(gateway, RATE, 3, (n) => ({
      apiKey: projects[n % PROJECTS]!.apiKey,
      body: envelope(keys[n % PROJECTS]!, { type: 'metric', name: 'cpu_usage', attributes: { value: n } }),
    }));
    assertAllAccepted(warmUp);
    await new Promise((r) => setTimeout(r, 2000));
    clients.reset();
    const ingest = await driveIngest(gateway, RATE, SECONDS, (n) => ({
      apiKey: projects[n % PROJECTS]!.apiKey,
      body: envelope(keys[n % PROJECTS]!, { type: 'metric', name: 'cpu_usage', attributes: { value: 1e9 + n } }),
    }));
    assertAllAccepted(ingest);
    await new Promise((r) => setTimeout(r, 2000));
    const ours = clients.figures(SECONDS);
    const endToEnd = clients.arrivals.flatMap((a) => (ingest.answeredAt.has(a.eventId) ? [a.at - ingest.answeredAt.get(a.eventId)!] : []));
    const memEnd = await rssOf(`${base}/metrics`);
    const tail = await tailPhases({ engine: processes[1]!, clients, keys, firehose: projects[0]!, producerKafka: kafka, url: `ws://127.0.0.1:${port}/ws` });
    clients.close();

    // Bare server.
    const bare = spawn(process.execPath, [...SOURCE_NODE_ARGS, 'bench/broadcast/bare-server.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    const [first] = (await once(bare.stdout, 'data')) as [Buffer];
    const bareUrl = (JSON.parse(first.toString().split('\n')[0]!) as { address: string }).address;
    const bareClients = await connectClients(`${bareUrl.replace('http', 'ws')}/ws`, (i) => ({ project: keys[i % PROJECTS]! }));
    const bareStart = await rssOf(`${bareUrl}/memory`);
    bareClients.reset();
    await drive(keys, async (batch) => void bare.stdin.write(batch.map((b) => `${b.line}\n`).join('')));
    await new Promise((r) => setTimeout(r, 2000));
    const baseline = bareClients.figures(SECONDS);
    const bareEnd = await rssOf(`${bareUrl}/memory`);
    bareClients.close();
    bare.kill();

    log(
      `/ingest: ${ingest.answeredAt.size} events answered 201 in ${ingest.seconds.toFixed(1)} s (${ingest.failed} not); each made one tile change, sent to ${CLIENTS / PROJECTS} clients`,
    );
    log(
      `broadcast: /ingest 201 to client p50 ${percentile(endToEnd, 50).toFixed(1)} ms, p99 ${percentile(endToEnd, 99).toFixed(1)} ms over ${endToEnd.length} deliveries (target p99 <= 100 ms)`,
    );
    log(row('broadcast', ours) + ` (latency from the change's changed_at), memory ${mb(memStart)} at start, ${mb(memEnd)} at end`);
    log(row('bare', baseline) + `, memory ${mb(bareStart)} at start, ${mb(bareEnd)} at end`);
    log(`ratio (delivered/s): ${(ours.perSecond / baseline.perSecond).toFixed(2)} (target >= 0.5)`);
    log();
    log(
      `live tail: rule engine stopped; ${RATE} tile changes/s produced to the tile-changes topic for ${TAIL_SECONDS} s per phase, to the same ${CLIENTS} clients`,
    );
    log(row('alone', tail.alone) + ' (latency from changed_at)');
    log(
      row('untailed', tail.untailed.figures) +
        ` (latency from changed_at) while ${tail.untailed.produced} events (${Math.round(tail.untailed.produced / tail.untailed.seconds)}/s) went to a project nobody tails`,
    );
    log(
      row('tailed', tail.firehose) +
        ` (latency from changed_at) while ${tail.produced} events (${Math.round(tail.produced / tail.firehoseSeconds)}/s) went to one tailed project`,
    );
    log(
      `tile-change latency ratio, tailed firehose / alone: p50 ${(tail.firehose.p50 / tail.alone.p50).toFixed(2)}, p99 ${(tail.firehose.p99 / tail.alone.p99).toFixed(2)}; tailed / untailed firehose (broadcast's own part): p50 ${(tail.firehose.p50 / tail.untailed.figures.p50).toFixed(2)}, p99 ${(tail.firehose.p99 / tail.untailed.figures.p99).toFixed(2)} (target: within noise)`,
    );
    log(
      `tailing client: ${tail.tailed} events received (${(tail.tailed / tail.firehoseSeconds).toFixed(0)}/s; bound 50/s after a first burst of 50), ${tail.skipped} reported skipped; received + skipped = ${tail.tailed + tail.skipped} of ${tail.produced} produced`,
    );
    log(`broadcast memory after the tail phases: ${mb(await rssOf(`${base}/metrics`))}`);
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await admin.deleteTopics({ topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES, env.TOPIC_CONTROL] }).catch(() => undefined);
    await admin.disconnect();
  }
}

await main();
