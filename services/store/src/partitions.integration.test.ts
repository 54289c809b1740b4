import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type pg from 'pg';
import { createPool, migrateAll } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import type { IngestedEvent } from '@pulseboard/contracts';
import { PartitionKeeper, parseBound } from './partitions.ts';
import { eventDays, writeEvents } from './event-writer.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const DAY = 86_400_000;
const logger = pino({ level: 'silent' });

/**
 * The partitions' upkeep with an injected clock, on a database of its own (a
 * clock years ahead would otherwise drop the partitions every other test uses).
 */
describe('time partitions and retention (CONTRACT Events, Retention)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  let nextId = 1;

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, root);
    pool = createPool({ connectionString: database.url, applicationName: 'partitions-test' });
    const account = (await pool.query<{ id: string }>("INSERT INTO accounts (name) VALUES ('t') RETURNING id")).rows[0]!.id;
    for (const [key, days] of [
      ['keeps-default', null],
      ['keeps-one-day', 1],
      ['deleted-long', 400],
    ] as const) {
      await pool.query(
        'INSERT INTO projects (project_key, account_id, name, api_key_hash, api_key_prefix, monthly_quota, retention_days) VALUES ($1, $2, $1, $3, $4, 10000, $5)',
        [key, account, Buffer.from(key), 'evk_', days],
      );
    }
    // A deleted project's long retention no longer holds partitions (its events go with the default's).
    await pool.query("UPDATE projects SET deleted_at = now() WHERE project_key = 'deleted-long'");
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const keeper = (clock: () => number, deleteBatchSize = 1000) =>
    new PartitionKeeper({ pool, logger, clock, defaultRetentionDays: 3, aheadDays: 2, deleteBatchSize });
  const partitions = async (table: string) =>
    (
      await pool.query<{ name: string; bound: string }>(
        `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [table],
      )
    ).rows;
  const event = (projectKey: string, at: number, labels: string[] = ['a', 'a', 'b']): IngestedEvent => ({
    id: nextId++,
    project_key: projectKey,
    account_id: 1,
    type: 'metric',
    name: 'cpu_usage',
    timestamp: new Date(at).toISOString(),
    received_at: new Date(at).toISOString(),
    labels,
    attributes: { value: 1 },
  });
  async function store(k: PartitionKeeper, events: IngestedEvent[]): Promise<void> {
    await k.ensure(eventDays(events));
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      await writeEvents(tx, events);
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }
  }

  it('keeps partitions ready from yesterday to the days ahead, across a day and a month boundary', async () => {
    let now = Date.parse('2031-01-31T23:30:00Z');
    const k = keeper(() => now);
    const first = await k.maintain();
    expect(first.created.filter((n) => n.startsWith('events_')).sort()).toEqual([
      'events_p20310130',
      'events_p20310131',
      'events_p20310201',
      'events_p20310202',
    ]);
    expect((await partitions('event_labels')).map((p) => p.name)).toEqual([
      'event_labels_p20310130',
      'event_labels_p20310131',
      'event_labels_p20310201',
      'event_labels_p20310202',
    ]);
    expect(parseBound((await partitions('events')).find((p) => p.name === 'events_p20310201')!.bound)).toEqual({
      from: Date.parse('2031-02-01T00:00:00Z'),
      to: Date.parse('2031-02-02T00:00:00Z'),
    });

    now += 3_600_000; // 2031-02-01T00:30Z: a new day and a new month
    const second = await k.maintain();
    expect(second.created).toEqual(['events_p20310203', 'event_labels_p20310203']);
    expect(await k.maintain()).toMatchObject({ created: [], dropped: [] });

    // The last instant of January and the first of February land in their own days' partitions.
    const edge = [event('keeps-default', Date.parse('2031-01-31T23:59:59.999Z')), event('keeps-default', Date.parse('2031-02-01T00:00:00Z'))];
    await store(k, edge);
    const { rows } = await pool.query<{ id: number; part: string }>(
      'SELECT id::int, tableoid::regclass::text AS part FROM events WHERE id = ANY($1) ORDER BY id',
      [edge.map((e) => e.id)],
    );
    expect(rows.map((r) => r.part)).toEqual(['events_p20310131', 'events_p20310201']);
    // Labels are written once per event even when it carries one twice.
    expect((await pool.query('SELECT label FROM event_labels WHERE event_id = $1 ORDER BY label', [edge[0]!.id])).rows.map((r) => r.label)).toEqual(['a', 'b']);
  });

  it('stores and counts an event once when the topic holds it twice (a gateway that resent it), in one batch or two', async () => {
    const k = keeper(() => Date.parse('2031-02-01T00:30:00Z'));
    const once = event('keeps-default', Date.parse('2031-02-01T00:10:00.123456Z'));
    const other = event('keeps-default', Date.parse('2031-02-01T00:11:00Z'));
    await store(k, [once, once]);
    await store(k, [other, once]);
    const { rows } = await pool.query<{ id: number; n: number }>('SELECT id::int, count(*)::int AS n FROM events WHERE id = ANY($1) GROUP BY 1 ORDER BY 1', [
      [once.id, other.id],
    ]);
    expect(rows).toEqual([
      { id: once.id, n: 1 },
      { id: other.id, n: 1 },
    ]);
    expect((await pool.query('SELECT count(*)::int AS n FROM event_labels WHERE event_id = ANY($1)', [[once.id, other.id]])).rows[0].n).toBe(4);
    const counted = await pool.query<{ n: string }>(
      "SELECT event_count::text AS n FROM project_daily_events WHERE project_key = 'keeps-default' AND day = '2031-02-01'",
    );
    // The two boundary events of the first test, then these two.
    expect(counted.rows[0]!.n).toBe('3');
  });

  it('creates the partition of any day a batch brings, on demand', async () => {
    const k = keeper(() => Date.parse('2031-02-01T00:30:00Z'));
    const old = event('keeps-default', Date.parse('2031-01-20T08:00:00Z'));
    await store(k, [old]);
    expect((await pool.query<{ part: string }>('SELECT tableoid::regclass::text AS part FROM events WHERE id = $1', [old.id])).rows[0]!.part).toBe(
      'events_p20310120',
    );
  });

  it('drops whole partitions past the longest retention in force, and deletes only a shorter-retention project’s older rows, in batches', async () => {
    const now = Date.parse('2031-03-10T12:00:00Z');
    const k = keeper(() => now, 2);
    const at = (daysAgo: number) => now - daysAgo * DAY;
    const events = [5, 2, 0.5].flatMap((d) => [
      event('keeps-default', at(d)),
      event('keeps-one-day', at(d)),
      event('keeps-one-day', at(d) + 1000),
      event('keeps-one-day', at(d) + 2000),
    ]);
    await store(k, events);
    const before = (await partitions('events')).map((p) => p.name);
    expect(before).toEqual(expect.arrayContaining(['events_p20310305', 'events_p20310308', 'events_p20310310']));

    const report = await k.maintain();
    // Longest retention: the default's 3 days. Every partition ending before 2031-03-07T12:00Z goes.
    expect(report.dropped).toEqual(expect.arrayContaining(['events_p20310130', 'events_p20310305']));
    expect(report.dropped).not.toContain('events_p20310308');
    const after = (await partitions('events')).map((p) => p.name);
    expect(after).not.toContain('events_p20310305');
    expect(after).toContain('events_p20310308');
    expect((await partitions('event_labels')).map((p) => p.name)).not.toContain('event_labels_p20310305');
    // The one-day project loses its 2-day-old events (3 of them, two per statement); the default project keeps its own.
    expect(report.expired).toEqual({ 'keeps-one-day': 3 });
    const left = await pool.query<{ project_key: string; n: number }>(
      'SELECT project_key, count(*)::int AS n FROM events WHERE id = ANY($1) GROUP BY 1 ORDER BY 1',
      [events.map((e) => e.id)],
    );
    expect(left.rows).toEqual([
      { project_key: 'keeps-default', n: 2 },
      { project_key: 'keeps-one-day', n: 3 },
    ]);
    expect((await pool.query('SELECT count(*)::int AS n FROM event_labels WHERE event_id = ANY($1)', [events.map((e) => e.id)])).rows[0].n).toBe(5 * 2);
    // The per-day stored counts follow (the list's total_count), the monthly usage (quota) does not.
    const daily = await pool.query<{ project_key: string; n: string }>(
      "SELECT project_key, sum(event_count)::text AS n FROM project_daily_events WHERE day >= '2031-03-01' GROUP BY 1 ORDER BY 1",
    );
    expect(daily.rows).toEqual([
      { project_key: 'keeps-default', n: '2' },
      { project_key: 'keeps-one-day', n: '3' },
    ]);
    const monthly = await pool.query<{ n: string }>(
      "SELECT sum(event_count)::text AS n FROM project_monthly_usage WHERE project_key = 'keeps-one-day' AND month = '2031-03-01'",
    );
    expect(monthly.rows[0]!.n).toBe('9');
  });
});
