/**
 * bench:rules: the rule engine's throughput on a backlog, against the same
 * run's like-for-like baseline (a consumer of the same topic that writes the
 * same state rows, history rows and offsets, one transaction per batch, with no
 * evaluation: bench/rules/baseline.ts) and its raw consumer (reads only), then
 * ingest-to-state latency at a steady rate through the whole pipeline, offered
 * at no more than half the engine's capacity measured on the backlog (queueing
 * at saturation is not latency). The machine's calibration (bench/shared/calibration.ts) is printed first.
 *
 *   pnpm bench:rules [--projects 100] [--tiles 100] [--events 200000] [--rate auto|<events/s>] [--seconds 15]
 *                    [--only all|backlog] [--profile] [--no-calibration]
 *
 * --profile: the engine writes a V8 CPU profile to the system temp dir on exit
 * (summarise it with bench/ingest/profile-summary.ts).
 *
 * Setup: its own database (pulseboard_rules_bench), Redis database 4 and
 * topics of its own; projects through the admin API, tiles (a mix of the four
 * evaluation kinds) inserted directly; the backlog produced straight to the
 * events topic in the gateway's format. Phase 1: a raw kafkajs consumer reads
 * the backlog, then one rule engine process (from its compiled dist/, as
 * production runs it: `bash deploy/build.sh` first) drains it (measured by its stored
 * offsets), then the state-writing baseline drains it into a database of its own. Phase 2: /ingest at a steady rate; latency from each
 * 201 to the tile-change message that event caused (a fan-out reader of
 * tile-changes), so it includes the outbox relay. Phase 3: /api/v1/webhooks
 * at 64 connections (closed loop, 10 s): each request waits for the engine's
 * outcome (WEBHOOK_OUTCOME_TIMEOUT_MS, 2 s) and answers 201 with
 * tiles_affected; p50/p99 and the answers' statuses. Phase 2 runs three
 * times: without rule changes, with one tile write a second through the API
 * (its p50/p99 printed), and without again (the noise the run with writes is
 * judged against).
 * Targets: >= 20,000 events/s and >= 0.5 x the state-writing baseline; latency p99 <= 50 ms
 * at an offered rate <= 0.5 x the engine's capacity (--rate auto: min(2000, half of it)).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { migrateAll } from '@pulseboard/db';
import { consume, eachMessage } from '@pulseboard/kafka-kit';
import {
  freePort,
  provisionProject,
  spawnService,
  testKafka,
  type ServiceProcess,
  TEST_ADMIN_TOKEN,
  TEST_KAFKA_BROKERS,
  TEST_SECRETS_KEY,
  localDatabaseUrl,
  localRedisUrl,
} from '@pulseboard/test-kit';
import { assertAllAccepted, driveIngest } from '../shared/ingest-driver.ts';
import { JsonPoster } from '../shared/http-client.ts';
import { scrapeEngine, stageLines } from './stages.ts';
import { stateWritingBaseline } from './baseline.ts';
import { calibrate, calibrationLine } from '../shared/calibration.ts';

const { values: args } = parseArgs({
  options: {
    projects: { type: 'string', default: '100' },
    tiles: { type: 'string', default: '100' },
    events: { type: 'string', default: '200000' },
    rate: { type: 'string', default: 'auto' },
    seconds: { type: 'string', default: '15' },
    profile: { type: 'boolean', default: false },
    only: { type: 'string', default: 'all' },
    'no-calibration': { type: 'boolean', default: false },
  },
});
const PROJECTS = Number(args.projects);
const TILES = Number(args.tiles);
const EVENTS = Number(args.events);
let RATE = args.rate === 'auto' ? 2000 : Number(args.rate);
const SECONDS = Number(args.seconds);
const WEBHOOK_CONNECTIONS = 64;
const WEBHOOK_SECONDS = 10;
const DATABASE_URL = process.env.RULES_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_rules_bench');
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = randomUUID().slice(0, 8);
const log = (line = '') => console.log(line);
// Strong generated secrets: services refuse weak ones.
const ADMIN_TOKEN = TEST_ADMIN_TOKEN;
const env = {
  LOG_LEVEL: 'warn',
  DATABASE_URL,
  REDIS_URL: localRedisUrl(4),
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
  TOPIC_EVENTS: `bench.rules.${run}.events`,
  TOPIC_EVENTS_DLQ: `bench.rules.${run}.events.dlq`,
  TOPIC_TILE_CHANGES: `bench.rules.${run}.tile-changes`,
  TOPIC_RULE_OUTCOMES: `bench.rules.${run}.rule-outcomes`,
  TOPIC_CONTROL: `bench.rules.${run}.control`,
  ADMIN_TOKEN,
  SECRETS_KEY: TEST_SECRETS_KEY,
  MIGRATE_ON_START: 'false',
  GLOBAL_HOURLY_LIMIT: '1000000000',
  DEFAULT_ACCOUNT_HOURLY_LIMIT: '1000000000',
  RULE_ENGINE_GROUP_ID: `bench-rules-${run}`,
  RULE_ENGINE_HTTP_PORT: '0',
  ...(process.env.BENCH_ENGINE_CONCURRENCY ? { RULE_ENGINE_PARTITIONS_CONCURRENTLY: process.env.BENCH_ENGINE_CONCURRENCY } : {}),
};

/**
 * A quarter of each kind, each tile watching its own metric, error, service
 * or check (as a dashboard's tiles do), so an event matches one tile of its
 * project: per kind i / 4 names the thing watched.
 */
function tileRule(i: number): unknown {
  const k = Math.floor(i / 4);
  switch (i % 4) {
    case 0:
      return { filter: { type: 'metric', name: `m${k}` }, evaluation: { kind: 'threshold', attribute: 'value', warning: 70, critical: 90 } };
    case 1:
      return { filter: { type: 'error', source: `app${k}` }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 50, critical: 200 } };
    case 2:
      return {
        filter: { type: 'deployment', source: `svc${k}` },
        evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
      };
    default:
      return { filter: { type: 'uptime', name: `check${k}` }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '10m' };
  }
}

/** Event n of a project: one of the four kinds, for one of the tiles' things. */
function eventBody(n: number): Record<string, unknown> {
  const k = Math.floor(n / 4) % Math.ceil(TILES / 4);
  switch (n % 4) {
    case 0:
      return { type: 'metric', name: `m${k}`, attributes: { value: (n * 37) % 100 } };
    case 1:
      return { type: 'error', name: 'exception', source: `app${k}`, attributes: { code: n % 7 } };
    case 2:
      return { type: 'deployment', name: ['deploy_started', 'deploy_finished', 'deploy_failed'][n % 3], source: `svc${k}`, attributes: {} };
    default:
      return { type: 'uptime', name: `check${k}`, attributes: { is_up: n % 11 !== 0 } };
  }
}

/**
 * The value of metric event n of the steady and webhook phases. Event n goes
 * to project n % PROJECTS and its threshold tile m(n % 10), the same tile on
 * every round: the value alternates low and high round by round (and differs
 * from the last), so every event changes its tile and gives one message.
 */
function changingValue(n: number): number {
  const round = Math.floor(n / PROJECTS);
  return round % 2 === 0 ? 10 + (round % 50) : 75 + (round % 20);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function main(): Promise<void> {
  if (!existsSync(`${root}services/rule-engine/dist/main.js`)) throw new Error('services/rule-engine/dist is missing: run bash deploy/build.sh first');
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL } });
  // A fresh database each run: the figures count only this run's writes.
  execFileSync('psql', [
    DATABASE_URL.replace(/\/[^/]*$/, '/postgres'),
    '-qc',
    `DROP DATABASE IF EXISTS ${new URL(DATABASE_URL).pathname.slice(1)} WITH (FORCE)`,
  ]);
  await migrateAll(DATABASE_URL, root);
  if (!args['no-calibration']) log(calibrationLine(await calibrate(env.KAFKA_BROKERS)));
  const db = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES].map((topic) => ({ topic, numPartitions: 6 })),
    waitForLeaders: true,
  });

  const port = await freePort();
  const processes: ServiceProcess[] = [await spawnService('gateway', { ...env, GATEWAY_PORT: String(port), GATEWAY_HOST: '127.0.0.1' })];
  const url = `http://127.0.0.1:${port}`;
  try {
    const projects: Awaited<ReturnType<typeof provisionProject>>[] = [];
    for (let p = 0; p < PROJECTS; p++)
      projects.push(await provisionProject(url, ADMIN_TOKEN, { burstLimit: 1_000_000, hourlyLimit: 1_000_000, monthlyQuota: 100_000_000 }));
    await db.query(
      `INSERT INTO tiles (project_key, name, kind, rule, position)
       SELECT p, 'tile ' || i, 'metric', r, i FROM unnest($1::text[], $2::int[], $3::jsonb[]) AS t(p, i, r)`,
      [
        projects.flatMap((p) => Array.from({ length: TILES }, () => p.projectKey)),
        projects.flatMap(() => Array.from({ length: TILES }, (_, i) => i)),
        projects.flatMap(() => Array.from({ length: TILES }, (_, i) => JSON.stringify(tileRule(i)))),
      ],
    );
    log(`bench:rules: ${PROJECTS} projects x ${TILES} tiles (threshold, window count, status_map, up_down), backlog of ${EVENTS} events`);

    // The backlog, in the gateway's format, produced straight to the topic.
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const at = new Date().toISOString();
    for (let start = 0; start < EVENTS; start += 5000) {
      const messages = Array.from({ length: Math.min(5000, EVENTS - start) }, (_, i) => {
        const n = start + i;
        const project = projects[n % PROJECTS]!;
        const event = {
          id: 1_000_000_000 + n,
          project_key: project.projectKey,
          account_id: project.accountId,
          timestamp: at,
          received_at: at,
          ...eventBody(n),
        };
        return { key: project.projectKey, value: JSON.stringify(event) };
      });
      await producer.send({ topic: env.TOPIC_EVENTS, messages });
    }
    // A connected producer keeps the process alive after the run.
    await producer.disconnect();

    // Baseline: a raw consumer of the same backlog (no decoding, no writes).
    let consumed = 0;
    const raw = kafka.consumer({ groupId: `bench-raw-${run}`, maxBytesPerPartition: 4 * 1024 * 1024 });
    await raw.connect();
    await raw.subscribe({ topic: env.TOPIC_EVENTS, fromBeginning: true });
    const rawStart = performance.now();
    let rawEnd = 0;
    await new Promise<void>((resolve) => {
      void raw.run({
        eachBatch: async ({ batch }) => {
          consumed += batch.messages.length;
          if (consumed >= EVENTS && rawEnd === 0) {
            rawEnd = performance.now();
            resolve();
          }
        },
      });
    });
    await raw.disconnect();
    const rawRate = EVENTS / ((rawEnd - rawStart) / 1000);

    // The engine on the same backlog: done when its stored offsets reach the end.
    const engineStart = performance.now();
    const profiles = join(tmpdir(), 'pulseboard-rules-profiles');
    if (args.profile) log(`engine CPU profile goes to ${profiles}`);
    const enginePort = await freePort();
    // From its compiled dist/, as production runs it (and as bench:store runs the store): under tsx its
    // start-up compiles the sources, which at a backlog of this size dominated the ratio to the bare baseline.
    processes.push(
      await spawnService(
        'rule-engine',
        { ...env, RULE_ENGINE_HTTP_PORT: String(enginePort), RULE_ENGINE_HTTP_HOST: '127.0.0.1' },
        { compiled: true, nodeArgs: args.profile ? ['--cpu-prof', '--cpu-prof-dir', profiles] : [] },
      ),
    );
    const engineUrl = `http://127.0.0.1:${enginePort}`;
    const applied = async () =>
      Number(
        (
          await db.query('SELECT coalesce(sum(next_offset), 0) AS n FROM rule_engine_offsets WHERE group_id = $1 AND next_offset > 0', [
            env.RULE_ENGINE_GROUP_ID,
          ])
        ).rows[0].n,
      );
    // Also from its first commit on (the process start-up and group join left out), as the baseline's second figure.
    let firstCommit: { at: number; applied: number } | undefined;
    for (let n = 0; (n = await applied()) < EVENTS;) {
      if (firstCommit === undefined && n > 0) firstCommit = { at: performance.now(), applied: n };
      await new Promise((r) => setTimeout(r, 50));
    }
    const engineRate = EVENTS / ((performance.now() - engineStart) / 1000);
    const engineWorkingRate = firstCommit === undefined ? engineRate : (EVENTS - firstCommit.applied) / ((performance.now() - firstCommit.at) / 1000);
    const changes = Number((await db.query('SELECT count(*) FROM tile_state_history')).rows[0].count);
    // The changes leave through the history relay after the commits: the steady phase must not queue behind them.
    const relayed = async () => (await admin.fetchTopicOffsets(env.TOPIC_TILE_CHANGES)).reduce((sum, p) => sum + Number(p.high), 0);
    while ((await relayed()) < changes) await new Promise((r) => setTimeout(r, 50));
    const relayedAfter = (performance.now() - engineStart) / 1000;
    // The like-for-like baseline: the same rows written, no evaluation (the engine is idle now).
    const base = await stateWritingBaseline({
      kafka,
      topic: env.TOPIC_EVENTS,
      events: EVENTS,
      databaseUrl: `${DATABASE_URL}_base`,
      engineDb: db,
      partitionsConcurrently: Number(env.RULE_ENGINE_PARTITIONS_CONCURRENTLY ?? 6),
      root,
    });
    log(
      `backlog: engine ${Math.round(engineRate)} events/s (start-up included); ${changes} tile changes written, all on the tile-changes topic ${relayedAfter.toFixed(1)} s after the engine started (${Math.round(EVENTS / relayedAfter)} events/s with the relay)`,
    );
    log(
      `  state-writing baseline (same state rows, history rows and offsets, one transaction per batch, no evaluation): ${Math.round(base.rate)} events/s (${base.stateRows} state rows, ${base.historyRows} history rows); engine ${(engineRate / base.rate).toFixed(2)} of it (target >= 0.5)`,
    );
    log(
      `    from each one's first commit on (start-up and group join left out): engine ${Math.round(engineWorkingRate)} events/s, baseline ${Math.round(base.workingRate)} events/s, ratio ${(engineWorkingRate / base.workingRate).toFixed(2)}`,
    );
    log(
      `  raw consumer (reads only): ${Math.round(rawRate)} events/s; engine ${(engineRate / rawRate).toFixed(2)} of it; engine ${Math.round(engineRate)} events/s (target >= 20000)`,
    );

    if (args.only === 'backlog') return;
    if (args.rate === 'auto') RATE = Math.max(1, Math.min(2000, Math.floor(engineRate / 2)));
    log(`  steady phases offered at ${RATE} events/s = ${(RATE / engineRate).toFixed(2)} of the engine's capacity above (p99s count at <= 0.5)`);
    // Phase 2: steady /ingest, latency from 201 to the tile-change the event caused; run three times:
    // without rule changes, with one tile write a second (through the API), and without again, so the
    // two runs without give the noise the run with is judged against.
    const tileIds = (await db.query<{ id: string; project_key: string }>('SELECT id, project_key FROM tiles WHERE position = 1 ORDER BY project_key')).rows;
    const stagesBefore = await scrapeEngine(engineUrl);
    const plain1 = await steadyPhase(false);
    const changed = await steadyPhase(true);
    const plain2 = await steadyPhase(false);
    const stagesAfter = await scrapeEngine(engineUrl);
    const steadyLine = (what: string, r: SteadyResult) =>
      `steady ${RATE}/s for ${SECONDS} s through /ingest ${what} (achieved ~${Math.round(Math.min(RATE, r.achieved))}/s): ingest-201 to tile-change p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms over ${r.latencies.length} changes, ${r.pending} events without a change (target p99 <= 50 ms)`;
    log(steadyLine('without rule changes', plain1));
    log(steadyLine('with one tile write a second', changed));
    log(steadyLine('without rule changes, again', plain2));
    const writes = changed.tileWrites.sort((a, b) => a - b);
    log(
      `  tile writes (PUT /api/v1/tiles/:id, a rule change of a project under load, one a second): ${writes.length}, p50 ${pct(writes, 50).toFixed(1)} ms, p99 ${pct(writes, 99).toFixed(1)} ms; ` +
        `end-to-end p99 with them ${pct(changed.latencies, 99).toFixed(1)} ms against ${pct(plain1.latencies, 99).toFixed(1)} and ${pct(plain2.latencies, 99).toFixed(1)} ms without (the noise)`,
    );
    log("  where the time goes (the engine's stage histograms over the three steady runs):");
    for (const line of stageLines(stagesBefore, stagesAfter)) log(line);

    interface SteadyResult {
      latencies: number[];
      pending: number;
      achieved: number;
      tileWrites: number[];
    }
    async function steadyPhase(withRuleChanges: boolean): Promise<SteadyResult> {
      const acknowledged = new Map<number, number>();
      // A change may arrive before its event's 201 is read: arrivals are matched afterwards.
      const arrived = new Map<number, number>();
      const reader = await consume<{ event_id: number | null }>({
        kafka,
        logger: pino({ level: 'silent' }),
        topic: env.TOPIC_TILE_CHANGES,
        group: { fanOut: 'bench-rules-latency' },
        offsets: 'none',
        decode: (value) => ({ ok: true, value: JSON.parse(value!.toString()) }),
        handler: eachMessage((change) => {
          if (change.event_id !== null && !arrived.has(change.event_id)) arrived.set(change.event_id, performance.now());
        }),
      });
      await reader.whenReady();
      const tileWrites: number[] = [];
      let writing = true;
      // One tile of one project a second (round robin): the project's next events carry a new revision,
      // so the engine re-reads its rules before evaluating them.
      const writer = (async () => {
        for (let w = 0; withRuleChanges && writing; w++) {
          const tile = tileIds[w % tileIds.length]!;
          const project = projects.find((p) => p.projectKey === tile.project_key)!;
          const rule = {
            filter: { type: 'error', source: `app0` },
            evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 50 + (w % 2), critical: 200 },
          };
          const t0 = performance.now();
          const res = await fetch(`${url}/api/v1/tiles/${tile.id}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ rule }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`tile write answered ${res.status}`);
          tileWrites.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t0))));
        }
      })();
      const started = performance.now();
      const steady = await driveIngest(url, RATE, SECONDS, (n) => {
        const project = projects[n % PROJECTS]!;
        return {
          apiKey: project.apiKey,
          body: {
            project_key: project.projectKey,
            type: 'metric',
            name: `m${n % 10}`,
            timestamp: new Date().toISOString(),
            attributes: { value: changingValue(n) },
          },
        };
      });
      writing = false;
      await writer;
      assertAllAccepted(steady);
      // The driver's clock is Date.now(); the reader's, performance.now(): one origin for both.
      const offset = performance.timeOrigin;
      for (const [id, at] of steady.answeredAt) acknowledged.set(id, at - offset);
      const total = RATE * SECONDS;
      const sendEnded = performance.now();
      const deadline = performance.now() + 10_000;
      const pendingChanges = () => [...acknowledged.keys()].filter((id) => !arrived.has(id)).length;
      while (pendingChanges() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await reader.stop();
      const missing = [...acknowledged.keys()].filter((id) => !arrived.has(id));
      if (missing.length > 0) {
        const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM tile_state_history WHERE event_id = ANY($1::bigint[])', [missing]);
        log(`  of ${missing.length} events without a change on the topic, ${rows[0]!.n} have one in the history (first ids ${missing.slice(0, 5).join(', ')})`);
      }
      const latencies = [...acknowledged].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : [])).sort((a, b) => a - b);
      return { latencies, pending: pendingChanges(), achieved: total / ((sendEnded - started) / 1000), tileWrites };
    }

    // Phase 3: /api/v1/webhooks waits for the engine's outcome (tiles_affected), 64 connections, closed loop.
    const hooks: number[] = [];
    const statuses = new Map<number, number>();
    let affected = 0;
    const poster = new JsonPoster(WEBHOOK_CONNECTIONS);
    const hooksUntil = performance.now() + WEBHOOK_SECONDS * 1000;
    let h = 0;
    await Promise.all(
      Array.from({ length: WEBHOOK_CONNECTIONS }, async () => {
        while (performance.now() < hooksUntil) {
          const n = h++;
          const project = projects[n % PROJECTS]!;
          const body = {
            project_key: project.projectKey,
            type: 'metric',
            name: `m${n % 10}`,
            timestamp: new Date().toISOString(),
            attributes: { value: changingValue(n) },
          };
          const t0 = performance.now();
          const res = await poster.post(`${url}/api/v1/webhooks`, { authorization: `Bearer ${project.apiKey}` }, body);
          hooks.push(performance.now() - t0);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          affected += typeof res.body.tiles_affected === 'number' ? res.body.tiles_affected : 0;
        }
      }),
    );
    poster.close();
    hooks.sort((a, b) => a - b);
    log(
      `webhooks with tiles_affected, ${WEBHOOK_CONNECTIONS} connections for ${WEBHOOK_SECONDS} s: ${Math.round(hooks.length / WEBHOOK_SECONDS)} req/s, p50 ${pct(hooks, 50).toFixed(1)} ms, p99 ${pct(hooks, 99).toFixed(1)} ms; ` +
        `answers ${[...statuses].map(([status, count]) => `${status}: ${count}`).join(', ')} (202 = past WEBHOOK_OUTCOME_TIMEOUT_MS); ${affected} tiles affected in all`,
    );
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await admin.deleteTopics({ topics: [env.TOPIC_EVENTS, env.TOPIC_TILE_CHANGES, env.TOPIC_RULE_OUTCOMES, env.TOPIC_CONTROL] }).catch(() => undefined);
    await admin.disconnect();
    await db.end();
  }
}

await main();
