import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { createPool, migrateAll } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import { previewEventsQuery, REPLAY_EVENTS_SQL } from '@pulseboard/event-store';

const root = fileURLToPath(new URL('../../', import.meta.url));
const HOUR = 3_600_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/**
 * A replay reads one project's events received since `since` (event-store's
 * preview-events.ts with the engine's order, and its replay-events.ts). The
 * events table is partitioned by the events' own time, so every partition is
 * searched: each must be searched by the project and receipt time
 * (events_project_received_idx), not read whole for the project.
 */
describe("the replay's read of the stored events", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  const now = Date.now();

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, root);
    pool = createPool({ connectionString: database.url, applicationName: 'replay-read-plan-test' });
    const days = Array.from({ length: 5 }, (_, i) => new Date(now - (i - 1) * 24 * HOUR).toISOString().slice(0, 10));
    await pool.query('SELECT store_ensure_day_partitions($1::date[])', [days]);
    // 200 projects' events over three days, each received up to a minute after its time; a few received in the last hour.
    await pool.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, kafka_partition, kafka_offset)
       SELECT g, 'p-' || (g % 200), 'metric', 'latency', t, t + (g % 60) * interval '1 second', g % 6, g
         FROM generate_series(1, 120000) AS g, LATERAL (SELECT to_timestamp($1 / 1000.0) - (g * interval '2 seconds')) AS x(t)`,
      [now],
    );
    await pool.query('ANALYZE events');
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** The partitions' indexes of events_project_received_idx. */
  const receivedIndexes = async () =>
    new Set(
      (
        await pool.query<{ name: string }>(
          "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = to_regclass('events_project_received_idx')",
        )
      ).rows.map((r) => r.name),
    );

  const expectBoundByReceipt = async (text: string, values: unknown[]) => {
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
    const plan = nodes(rows[0]!['QUERY PLAN'][0].Plan);
    // An empty partition (the days ahead) is rightly read whole: it has nothing to read.
    const filled = new Set((await pool.query<{ name: string }>('SELECT DISTINCT tableoid::regclass::text AS name FROM events')).rows.map((r) => r.name));
    const scans = plan.filter((n) => n['Relation Name'] !== undefined && filled.has(n['Relation Name']));
    expect(scans.length, JSON.stringify(plan.map((n) => n['Node Type']))).toBe(filled.size);
    // Every partition holding events searched through its part of the index, bounded by the project and receipt time.
    expect(
      scans.filter((n) => n['Node Type'] !== 'Index Scan' && n['Node Type'] !== 'Bitmap Heap Scan').map((n) => `${n['Node Type']} on ${n['Relation Name']}`),
    ).toEqual([]);
    const searched = plan.filter((n) => n['Index Name'] !== undefined);
    expect(searched.length).toBeGreaterThanOrEqual(filled.size);
    const indexes = await receivedIndexes();
    expect(searched.map((n) => n['Index Name']).filter((name) => !indexes.has(name!))).toEqual([]);
    for (const n of searched) expect(n['Index Cond']).toMatch(/project_key = .*received_at >= /);
  };

  it('searches every partition by project and receipt time, in the gateway (dry run) and in the engine (applied)', async () => {
    const since = new Date(now - HOUR);
    const reads = { severity: false, source: false, channel: false, labels: false, attributeKeys: ['ms'] };
    const query = previewEventsQuery({ projectKey: 'p-7', since, reads, types: ['metric'], names: ['latency'], order: 'engine' });
    await expectBoundByReceipt(query.text, query.values);
    await expectBoundByReceipt(REPLAY_EVENTS_SQL, ['p-7', since, 1, 1_000_000]);
  });
});
