import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { createPool, runMigrations } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import { MIGRATIONS_DIR } from './service.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const EVENTS = 3000;

/**
 * An installation with events upgrades to the partitioned tables: its rows
 * stay where they are, as the partition of everything before a cutover, and
 * everything reads as before. Measured on 1,000,000 events by
 * bench/store/legacy-migration.ts (services/store/docs/partitioning.md).
 */
describe('upgrading an events table that has rows (the partitioning migration)', () => {
  const dropped: (() => Promise<void>)[] = [];
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    for (const drop of dropped.splice(0)) await drop();
  });

  /** A database at the store's schema before partitioning, holding EVENTS events of the last days. */
  async function legacyInstallation(): Promise<{ url: string; pool: pg.Pool }> {
    const database = await createScratchDatabase();
    dropped.push(database.drop);
    await runMigrations({ databaseUrl: database.url, dir: MIGRATIONS_DIR, service: 'store', count: 3 });
    const pool = createPool({ connectionString: database.url, applicationName: 'legacy-test' });
    pools.push(pool);
    // As the old store wrote them: the label rows by its trigger, the monthly usage by receipt.
    await pool.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, labels, attributes)
       SELECT g, 'p' || g % 3, 'metric', 'cpu_usage', now() - g * interval '1 minute', now(), CASE WHEN g % 2 = 0 THEN 'warn' END,
              ARRAY['l' || g % 5], '{}'::jsonb FROM generate_series(1, $1::int) g`,
      [EVENTS],
    );
    await pool.query(`INSERT INTO project_monthly_usage SELECT project_key, date_trunc('month', received_at)::date, count(*) FROM events GROUP BY 1, 2`);
    return { url: database.url, pool };
  }

  const partitionsOf = async (pool: pg.Pool, table: string) =>
    (
      await pool.query<{ name: string; bound: string }>(
        `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [table],
      )
    ).rows;
  const utcDay = (offsetDays: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

  async function expectReadable(pool: pg.Pool): Promise<void> {
    expect((await pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(EVENTS);
    expect((await pool.query('SELECT count(*)::int AS n FROM event_labels')).rows[0].n).toBe(EVENTS);
    expect((await pool.query('SELECT sum(event_count)::int AS n FROM project_daily_events')).rows[0].n).toBe(EVENTS);
    // The list's label path joins the label rows to their events by time and id.
    const labelled = await pool.query(
      `SELECT e.id FROM event_labels l JOIN events e ON e.occurred_at = l.occurred_at AND e.id = l.event_id WHERE l.project_key = 'p1' AND l.label = 'l1' ORDER BY l.occurred_at DESC LIMIT 5`,
    );
    expect(labelled.rowCount).toBe(5);
    // A day the old rows' range covers gets no partition of its own; the day at the cutover does.
    expect((await pool.query('SELECT store_ensure_day_partitions(ARRAY[$1::date]) AS created', [utcDay(0)])).rows[0].created).toEqual([]);
  }

  it('attaches the old table as the partition before a cutover two days ahead, and builds the indexes it lacks', async () => {
    const { url, pool } = await legacyInstallation();
    await runMigrations({ databaseUrl: url, dir: MIGRATIONS_DIR, service: 'store' });
    expect(await partitionsOf(pool, 'events')).toEqual([{ name: 'events_legacy', bound: `FOR VALUES FROM (MINVALUE) TO ('${utcDay(2)} 00:00:00+00')` }]);
    expect((await partitionsOf(pool, 'event_labels')).map((p) => p.name)).toEqual(['event_labels_legacy']);
    await expectReadable(pool);
    expect((await pool.query('SELECT store_ensure_day_partitions(ARRAY[$1::date]) AS created', [utcDay(2)])).rows[0].created).toEqual([
      `events_p${utcDay(2).replaceAll('-', '')}`,
      `event_labels_p${utcDay(2).replaceAll('-', '')}`,
    ]);
  });

  it('after the online preparation (deploy/store-prepare-partitioning.sql) uses its bound and its indexes: nothing to build', async () => {
    const { url, pool } = await legacyInstallation();
    const psqlUrl = url.replace('postgres://', 'postgresql://');
    await run('psql', [psqlUrl, '-q', '-f', `${root}deploy/store-prepare-partitioning.sql`]);
    await runMigrations({ databaseUrl: url, dir: MIGRATIONS_DIR, service: 'store' });
    expect(await partitionsOf(pool, 'events')).toEqual([{ name: 'events_legacy', bound: `FOR VALUES FROM (MINVALUE) TO ('${utcDay(7)} 00:00:00+00')` }]);
    // The partition's index of each parent index is the one the preparation built.
    const { rows } = await pool.query<{ parent: string; child: string }>(
      `SELECT p.relname AS parent, c.relname AS child FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
        WHERE c.relkind = 'i' AND p.relname IN ('events_id_idx', 'events_project_severity_time_idx') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { parent: 'events_id_idx', child: 'events_id_legacy' },
      { parent: 'events_project_severity_time_idx', child: 'events_project_severity_time_legacy' },
    ]);
    await expectReadable(pool);
  });

  it("drops the old partition's indexes that are none of events' own (the old primary key, full copies of partial ones)", async () => {
    const { url, pool } = await legacyInstallation();
    const extraIndexes = async () =>
      (
        await pool.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid IN ('events_legacy'::regclass, 'event_labels_legacy'::regclass)
              AND NOT EXISTS (SELECT 1 FROM pg_inherits x WHERE x.inhrelid = i.indexrelid) ORDER BY 1`,
        )
      ).rows.map((r) => r.name);
    // Up to the index set's migration (partitioning, Kafka positions, the receipt index).
    await runMigrations({ databaseUrl: url, dir: MIGRATIONS_DIR, service: 'store', count: 3 });
    expect(await extraIndexes()).toEqual([
      'events_pkey_legacy',
      'events_project_channel_time_idx_legacy',
      'events_project_correlation_time_idx_legacy',
      'events_project_severity_time_idx_legacy',
      'events_project_source_time_idx_legacy',
    ]);
    await runMigrations({ databaseUrl: url, dir: MIGRATIONS_DIR, service: 'store' });
    expect(await extraIndexes()).toEqual([]);
    await expectReadable(pool);
    // An event found by its id still is, through the (id, occurred_at) index attached to events'.
    expect((await pool.query('SELECT id FROM events WHERE id = 7')).rowCount).toBe(1);
  });
});
