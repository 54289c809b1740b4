/**
 * How long the partitioning migration holds the events table of an existing
 * installation (1,000,000 events by default), without and with the online
 * preparation (deploy/store-prepare-partitioning.sql, run while writes go on).
 * The migration is one transaction that starts by renaming the table: its
 * duration is how long the store's writes and the read API's event queries
 * wait (the gateway keeps accepting into Kafka throughout; the store catches up
 * after). Also a writer inserting rows during the preparation shows that it
 * does not block them.
 *
 *   node -C @pulseboard/source --import tsx bench/store/legacy-migration.ts [--events 1000000]
 */
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { runMigrations } from '../../packages/db/src/index.ts';
import { localDatabaseUrl } from '@pulseboard/test-kit';

const execFileAsync = promisify(execFile);
const { values: args } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
const EVENTS = Number(args.events);
const root = fileURLToPath(new URL('../../', import.meta.url));
const DIR = `${root}services/store/migrations`;
const URL_BASE = process.env.LEGACY_BENCH_DATABASE_URL ?? localDatabaseUrl('pulseboard_legacy_bench');

function fresh(): void {
  const name = new URL(URL_BASE).pathname.slice(1);
  const admin = URL_BASE.replace(/\/[^/]*$/, '/postgres');
  execFileSync('psql', [admin, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
  execFileSync('psql', [admin, '-qc', `CREATE DATABASE ${name}`]);
}

/** The store's schema before partitioning, with EVENTS events over 30 days (label rows by its trigger). */
async function legacy(pool: pg.Pool): Promise<void> {
  await runMigrations({ databaseUrl: URL_BASE, dir: DIR, service: 'store', count: 3 });
  const started = performance.now();
  for (let from = 1; from <= EVENTS; from += 250_000) {
    await pool.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
       SELECT g, 'p' || g % 100, 'metric', 'cpu_usage', now() - (g % 2592000) * interval '1 second', now(), CASE WHEN g % 3 <> 0 THEN 'warn' END,
              CASE WHEN g % 4 = 0 THEN 'ch' END, CASE WHEN g % 5 = 0 THEN 'wf-' || g END, 'host-' || g % 50,
              ARRAY['prod', 'team-' || g % 20], jsonb_build_object('value', g % 100)
         FROM generate_series($1::bigint, $2::bigint) g`,
      [from, Math.min(EVENTS, from + 249_999)],
    );
  }
  await pool.query(`INSERT INTO project_monthly_usage SELECT project_key, date_trunc('month', received_at)::date, count(*) FROM events GROUP BY 1, 2`);
  await pool.query('VACUUM ANALYZE events, event_labels');
  console.log(`  old schema with ${EVENTS} events (and their label rows) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function migrate(): Promise<number> {
  const started = performance.now();
  await runMigrations({ databaseUrl: URL_BASE, dir: DIR, service: 'store' });
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  console.log(`legacy migration: ${EVENTS} events, ${URL_BASE}`);
  for (const prepared of [false, true]) {
    fresh();
    const pool = new pg.Pool({ connectionString: URL_BASE, max: 2 });
    try {
      await legacy(pool);
      if (prepared) {
        // A writer going on meanwhile, as the old store would: the preparation must not stop it.
        let written = 0;
        let slowest = 0;
        let writing = true;
        const writer = (async () => {
          for (let id = EVENTS + 1; writing; id++) {
            const t = performance.now();
            await pool.query(
              `INSERT INTO events (id, project_key, type, name, occurred_at, received_at) VALUES ($1, 'p1', 'metric', 'cpu_usage', now(), now())`,
              [id],
            );
            slowest = Math.max(slowest, performance.now() - t);
            written++;
          }
        })();
        const started = performance.now();
        // Asynchronously: execFileSync would stop this process's writer for as long as psql runs.
        await execFileAsync('psql', [URL_BASE.replace('postgres://', 'postgresql://'), '-q', '-f', `${root}deploy/store-prepare-partitioning.sql`]);
        const took = (performance.now() - started) / 1000;
        writing = false;
        await writer;
        console.log(`  online preparation: ${took.toFixed(1)} s, while a writer inserted ${written} rows (slowest insert ${slowest.toFixed(0)} ms)`);
      }
      const seconds = await migrate();
      const rows = (await pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
      console.log(
        `  migration ${prepared ? 'after the preparation' : 'alone'}: ${seconds.toFixed(2)} s holding the table; ${rows} events readable through the partitioned table`,
      );
    } finally {
      await pool.end();
    }
  }
}

await main();
