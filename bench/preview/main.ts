/**
 * bench:preview: POST /api/v1/tiles/preview over 1,000,000 stored events of
 * one project (the most a preview reads), spread over the last 23 hours.
 * Same-run baseline: the same cursor read of the same rows with nothing
 * evaluated (what reading the events costs alone), so the ratio is what the
 * evaluator and the HTTP answer add.
 *
 *   pnpm bench:preview [--events 1000000] [--runs 3] [--reload]
 *
 * Needs Postgres, Redis and the Kafka broker (deploy/infra.sh up). Uses its own
 * database (PREVIEW_BENCH_DATABASE_URL, default pulseboard_bench_preview) and
 * Redis database 2. The events are inserted in bulk (generate_series), not
 * through the pipeline: the bench measures reading them.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateAll } from '../../packages/db/src/index.ts';
import { createLogger } from '../../packages/config/src/index.ts';
import { API_KEY_PREFIX, generateSecret, hashSecret } from '../../packages/contracts/src/index.ts';
import { loadGatewayEnv, startGateway } from '../../services/gateway/src/index.ts';
import { scanPreviewEvents } from '@pulseboard/event-store';
import { ruleReads } from '../../packages/rules/src/index.ts';
import type { TileRule } from '../../packages/contracts/src/index.ts';
import { PREVIEW_LIMITS } from '../../services/gateway/src/control/tile-preview-route.ts';
import { localDatabaseUrl, localRedisUrl, TEST_ADMIN_TOKEN, TEST_KAFKA_BROKERS, TEST_SECRETS_KEY } from '@pulseboard/test-kit';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '3' }, reload: { type: 'boolean', default: false } },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const DATABASE_URL = process.env.PREVIEW_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_bench_preview');
const REDIS_URL = process.env.PREVIEW_BENCH_REDIS_URL ?? localRedisUrl(2);
const PROJECT = 'preview-bench';
const SPAN_S = 23 * 3600;
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line: string) => console.log(line);

/** Every event matched (no filter), a window over them all: the most work per event. */
const CASES = [
  {
    name: 'window avg, every event',
    rule: { evaluation: { kind: 'window', aggregate: 'avg', attribute: 'value', window: '5m', warning: 50, critical: 80 } },
    narrowed: false,
  },
  {
    name: 'threshold, metric cpu_usage',
    rule: { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
    narrowed: true,
  },
];

async function load(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE project_key = $1', [PROJECT]);
  if (!args.reload && rows[0]!.n === EVENTS) return log(`  ${EVENTS} events already loaded (--reload to load again)`);
  const started = performance.now();
  const days = [0, 1, 2].map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10));
  await pool.query('SELECT store_ensure_day_partitions($1::date[])', [days]);
  await pool.query('TRUNCATE events, event_labels');
  // One in five a cpu_usage metric; the rest deployments, uptime checks and errors. Oldest first, ~12 per second.
  await pool.query(
    `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
     SELECT g, $1, (ARRAY['metric','deployment','uptime','error','metric'])[1 + g % 5],
            (ARRAY['cpu_usage','deploy_finished','http_check','exception','memory_usage'])[1 + g % 5],
            t, t + interval '50 milliseconds', NULL, NULL, NULL, 'host-' || g % 50, ARRAY['prod'],
            jsonb_build_object('value', (g * 7919) % 100, 'host', 'host-' || g % 50, 'is_up', g % 7 <> 0)
       FROM generate_series(1, $2::bigint) g, LATERAL (SELECT now() - ($2::bigint - g) * ($3::float8 / $2::bigint) * interval '1 second' AS t) times`,
    [PROJECT, EVENTS, SPAN_S],
  );
  await pool.query('VACUUM ANALYZE events');
  log(`  loaded ${EVENTS} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  log(
    `bench:preview: ${EVENTS} events of one project over the last 23 h, ${DATABASE_URL}; limits ${PREVIEW_LIMITS.maxEvents} events; PREVIEW_TIME_LIMIT_MS raised to 120 s here so that the time is measured whatever the machine (the default is 10 s)`,
  );
  await migrateAll(DATABASE_URL, root);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  await load(pool);

  const apiKey = generateSecret(API_KEY_PREFIX);
  await pool.query('DELETE FROM projects WHERE project_key = $1', [PROJECT]);
  await pool.query("DELETE FROM accounts WHERE name = 'preview-bench'");
  const account = (await pool.query<{ id: string }>("INSERT INTO accounts (name) VALUES ('preview-bench') RETURNING id")).rows[0]!.id;
  const env = loadGatewayEnv({
    DATABASE_URL,
    REDIS_URL,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? TEST_KAFKA_BROKERS,
    GATEWAY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'error',
    DATABASE_POOL_SIZE: '4',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: TEST_SECRETS_KEY,
    PREVIEW_TIME_LIMIT_MS: '120000',
  });
  await pool.query(
    "INSERT INTO projects (project_key, account_id, name, api_key_hash, api_key_prefix, monthly_quota) VALUES ($1, $2, 'Preview bench', $3, 'evk_', $4)",
    [PROJECT, account, hashSecret(apiKey), env.DEFAULT_MONTHLY_QUOTA],
  );
  const gateway = await startGateway(env, { skipTopicCheck: true, logger: createLogger('bench-gateway', 'error') });

  try {
    for (const c of CASES) {
      const previews: number[] = [];
      const reads: number[] = [];
      let answer: Record<string, unknown> = {};
      for (let run = 0; run < RUNS; run++) {
        // Within the 24 h a preview may go back, fixed for the run's two reads.
        const since = new Date(Date.now() - 24 * 3_600_000 + 5 * 60_000).toISOString();
        // Baseline: the same read of the same rows, nothing evaluated.
        let t = performance.now();
        const types = c.narrowed ? ['metric'] : undefined;
        const names = c.narrowed ? ['cpu_usage'] : undefined;
        const end = await scanPreviewEvents(
          pool,
          {
            projectKey: PROJECT,
            since: new Date(since),
            types,
            names,
            reads: ruleReads(c.rule as TileRule),
            maxEvents: PREVIEW_LIMITS.maxEvents,
            timeLimitMs: 60_000,
          },
          () => undefined,
        );
        reads.push(performance.now() - t);
        if (end !== 'done') throw new Error(`baseline read ended ${end}`);
        t = performance.now();
        const res = await fetch(`${gateway.url}/api/v1/tiles/preview`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rule: c.rule, since }),
        });
        const body = (await res.json()) as { data: Record<string, unknown> };
        previews.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
        answer = body.data;
      }
      const p = median(previews);
      const r = median(reads);
      log(
        `  ${c.name.padEnd(30)} preview ${seconds(p)} s (runs ${previews.map(seconds).join(', ')}); read alone ${seconds(r)} s; ratio ${(p / r).toFixed(2)}x; scanned ${String(answer.events_scanned)}, matched ${String(answer.events_matched)}, changes ${String(answer.changes_total)}`,
      );
    }
  } finally {
    await gateway.stop();
    await pool.end();
  }
}

await main();
