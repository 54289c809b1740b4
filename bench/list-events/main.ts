/**
 * bench:list-events: first-page latency of GET /api/v1/events for each filter
 * of CONTRACT.md alone, on 10,000,000 stored events over 100 projects, half of
 * them in one hot project (the one asked about), in the store's day
 * partitions. The same run's baseline is the same statements with only the
 * time index: what each filter index buys (their write cost: bench/store).
 *
 *   pnpm bench:list-events [--events 10000000] [--requests 300] [--baseline-requests 20] [--reload]
 *
 * Needs Postgres and Redis (deploy/infra.sh up). Uses its own database
 * (LIST_EVENTS_BENCH_DATABASE_URL, default pulseboard_bench) and Redis database 2.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateAll } from '../../packages/db/src/index.ts';
import { createLogger } from '../../packages/config/src/index.ts';
import { startGateway, loadGatewayEnv } from '../../services/gateway/src/index.ts';
import { hashSecret, generateSecret, API_KEY_PREFIX } from '../../packages/contracts/src/index.ts';
import { parseEventFilters } from '../../services/gateway/src/params/event-filters.ts';
import { COUNT_CAP, countEvents, selectEventPage } from '@pulseboard/event-store';
import { BENCH_PROJECT, hotCount, loadEvents, loadedCount, loadedTotal } from './load.ts';
import { CASES } from './cases.ts';
import { measure, ms, type Figures } from './measure.ts';
import { TEST_ADMIN_TOKEN, TEST_KAFKA_BROKERS, TEST_SECRETS_KEY, localDatabaseUrl, localRedisUrl } from '@pulseboard/test-kit';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    requests: { type: 'string', default: '300' },
    'baseline-requests': { type: 'string', default: '20' },
    reload: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(args.events);
const HOT = hotCount(EVENTS);
const REQUESTS = Number(args.requests);
const BASELINE_REQUESTS = Number(args['baseline-requests']);
const DATABASE_URL = process.env.LIST_EVENTS_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_bench');
const REDIS_URL = process.env.LIST_EVENTS_BENCH_REDIS_URL ?? localRedisUrl(2);
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line: string) => console.log(line);

// The baseline keeps these: lists by time and reads by id. Every filter index is dropped.
const BASELINE_INDEXES = new Set(['events_id_idx', 'events_project_time_idx']);

const toQueryString = (q: Record<string, string | string[]>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const one of Array.isArray(v) ? v : [v]) s.append(k, one);
  return s.toString();
};

async function main(): Promise<void> {
  log(`bench:list-events: ${EVENTS} events over 100 projects, ${HOT} of them in "${BENCH_PROJECT}" (asked about), ${DATABASE_URL}`);
  await migrateAll(DATABASE_URL, root);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  const client = await pool.connect();
  try {
    if (args.reload || (await loadedCount(client)) !== loadedTotal(EVENTS)) await loadEvents(client, EVENTS, log);
    else log('  events already loaded (pass --reload to load them again)');
    // As autovacuum would have by now: statistics for the planner, visibility maps for index-only scans.
    await client.query('VACUUM ANALYZE events, event_labels, project_daily_events');
  } finally {
    client.release();
  }

  // The project and its key, written as the admin API writes them.
  const apiKey = generateSecret(API_KEY_PREFIX);
  await pool.query('DELETE FROM projects WHERE project_key = $1', [BENCH_PROJECT]);
  await pool.query("DELETE FROM accounts WHERE name = 'bench'");
  const account = (await pool.query<{ id: string }>("INSERT INTO accounts (name) VALUES ('bench') RETURNING id")).rows[0]!.id;
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
  });
  await pool.query(
    "INSERT INTO projects (project_key, account_id, name, api_key_hash, api_key_prefix, monthly_quota) VALUES ($1, $2, 'Bench', $3, 'evk_', $4)",
    [BENCH_PROJECT, account, hashSecret(apiKey), env.DEFAULT_MONTHLY_QUOTA],
  );

  const gateway = await startGateway(env, { skipTopicCheck: true, logger: createLogger('bench-gateway', 'error') });
  const now = Date.now();
  const rows: { name: string; http: Figures; sql: Figures; baseline?: Figures; inexact: number }[] = [];
  try {
    log(`\nfirst page (per_page 25), ${REQUESTS} requests per filter, one at a time, after 20 unmeasured:`);
    for (const c of CASES) {
      let inexact = 0;
      const http = await measure(REQUESTS, 20, async (i) => {
        const res = await fetch(`${gateway.url}/api/v1/events?${toQueryString(c.query(i, HOT, now))}`, { headers: { authorization: `Bearer ${apiKey}` } });
        if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${await res.text()}`);
        if (res.headers.get('x-total-count-exact') === 'false') inexact++;
        await res.arrayBuffer();
      });
      // The route's own two statements, sequentially on one connection (as the baseline below runs).
      const sql = await measure(REQUESTS, 20, async (i) => {
        const parsed = parseEventFilters(c.query(i, HOT, now));
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
        await selectEventPage(pool, [BENCH_PROJECT], parsed.filters, { perPage: 25, offset: 0 });
        await countEvents(pool, [BENCH_PROJECT], parsed.filters);
      });
      rows.push({ name: c.name, http, sql, inexact: Math.round((inexact / (REQUESTS + 20)) * 100) });
      log(
        `  ${c.name.padEnd(26)} HTTP p50 ${ms(http.p50).padStart(6)} ms  p99 ${ms(http.p99).padStart(6)} ms   SQL p50 ${ms(sql.p50).padStart(6)}  p99 ${ms(sql.p99).padStart(6)}`,
      );
    }
  } finally {
    await gateway.stop();
  }

  log(`\nbaseline: the same statements with only the time index (every filter index dropped), ${BASELINE_REQUESTS} per filter:`);
  const baseline = await pool.connect();
  try {
    await baseline.query('BEGIN');
    // Hidden in this transaction only, and put back by the ROLLBACK.
    const { rows: extra } = await baseline.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'events'",
    );
    for (const { indexname } of extra) if (!BASELINE_INDEXES.has(indexname)) await baseline.query(`DROP INDEX ${baseline.escapeIdentifier(indexname)}`);
    for (const [i, c] of CASES.entries()) {
      const figures = await measure(BASELINE_REQUESTS, 2, async (k) => {
        const parsed = parseEventFilters(c.query(k, HOT, now));
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
        await selectEventPage(baseline, [BENCH_PROJECT], parsed.filters, { perPage: 25, offset: 0 });
        await countEvents(baseline, [BENCH_PROJECT], parsed.filters);
      });
      rows[i]!.baseline = figures;
      log(`  ${c.name.padEnd(26)} SQL p50 ${ms(figures.p50).padStart(6)} ms  p99 ${ms(figures.p99).padStart(6)} ms`);
    }
  } finally {
    await baseline.query('ROLLBACK');
    baseline.release();
  }

  log(
    `\nsummary (${EVENTS} events, ${HOT} in the project asked about; total_count exact when unfiltered, else counted up to ${COUNT_CAP}; ratio = time-index-only SQL p99 / SQL p99):`,
  );
  log(
    `  ${'filter'.padEnd(26)} ${'HTTP p50'.padStart(9)} ${'HTTP p99'.padStart(9)} ${'SQL p99'.padStart(8)} ${'base p50'.padStart(9)} ${'base p99'.padStart(9)} ${'ratio'.padStart(7)} ${'capped'.padStart(7)}`,
  );
  for (const r of rows) {
    const ratio = r.baseline === undefined ? '-' : `${(r.baseline.p99 / r.sql.p99).toFixed(1)}x`;
    log(
      `  ${r.name.padEnd(26)} ${ms(r.http.p50).padStart(9)} ${ms(r.http.p99).padStart(9)} ${ms(r.sql.p99).padStart(8)} ${ms(r.baseline?.p50 ?? NaN).padStart(9)} ${ms(r.baseline?.p99 ?? NaN).padStart(9)} ${ratio.padStart(7)} ${`${r.inexact}%`.padStart(7)}`,
    );
  }
  const worst = rows.reduce((a, b) => (b.http.p99 > a.http.p99 ? b : a));
  log(`  worst HTTP p99: ${ms(worst.http.p99)} ms (${worst.name}); "capped" = share of responses whose total_count is the ${COUNT_CAP} lower bound`);
  await pool.end();
}

await main();
