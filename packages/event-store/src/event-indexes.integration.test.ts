import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateAll, type Queryable } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import type { EventFilters } from './event-filters.ts';
import { countEvents, selectEvent, selectEventPage } from './event-list.ts';
import { previewEventsQuery } from './preview-events.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PROJECT = 'indexed';
const OTHER = 'indexed-other';
const EVENTS = 60_000;
const HOUR = 3_600_000;

/** What a plan reads of events and event_labels. */
interface PlanScans {
  /** Indexes, each partition's by its parent's name (what the migrations create). */
  indexes: Set<string>;
  /** Partitions read whole. */
  seqScans: Set<string>;
}

interface StatementPlan {
  sql: string;
  scans: PlanScans;
}

/**
 * Every documented filter of GET /api/v1/events (CONTRACT Lists) alone, and
 * the combinations the read API builds differently (several labels, a filter
 * with a time window, several projects), with the index its statements must
 * read. The queried values are rare (one event in 500), as the values people
 * look for usually are: only an index finds them without reading the project.
 */
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const filters = (f: Partial<EventFilters>): EventFilters => ({ equal: [], labels: [], ...f });
const CASES: { name: string; filters: EventFilters; projects?: string[]; expected: string[] }[] = [
  { name: 'no filter', filters: filters({}), expected: ['events_project_time_idx'] },
  { name: 'type', filters: filters({ equal: [['type', 'deployment']] }), expected: ['events_project_type_time_idx'] },
  { name: 'name', filters: filters({ equal: [['name', 'deploy_failed']] }), expected: ['events_project_name_time_idx'] },
  { name: 'severity', filters: filters({ equal: [['severity', 'critical']] }), expected: ['events_project_severity_time_idx'] },
  { name: 'source', filters: filters({ equal: [['source', 'host-7']] }), expected: ['events_project_source_time_idx'] },
  { name: 'channel', filters: filters({ equal: [['channel', 'ch-rare']] }), expected: ['events_project_channel_time_idx'] },
  { name: 'correlation_id', filters: filters({ equal: [['correlation_id', 'wf-42']] }), expected: ['events_project_correlation_time_idx'] },
  // The label's rows newest first, then each event by its (id, time) key.
  { name: 'label', filters: filters({ labels: ['rare'] }), expected: ['event_labels_pkey', 'events_id_idx'] },
  { name: 'two labels', filters: filters({ labels: ['rare', 'prod'] }), expected: ['event_labels_pkey', 'events_id_idx'] },
  { name: 'since', filters: filters({ since: iso(now - HOUR) }), expected: ['events_project_time_idx'] },
  { name: 'until', filters: filters({ until: iso(now - 30 * HOUR) }), expected: ['events_project_time_idx'] },
  { name: 'since and until', filters: filters({ since: iso(now - 20 * HOUR), until: iso(now - 19 * HOUR) }), expected: ['events_project_time_idx'] },
  { name: 'type and since', filters: filters({ equal: [['type', 'deployment']], since: iso(now - 20 * HOUR) }), expected: ['events_project_type_time_idx'] },
  { name: 'label and severity', filters: filters({ equal: [['severity', 'critical']], labels: ['prod'] }), expected: ['events_project_severity_time_idx'] },
  {
    name: 'type, several projects',
    filters: filters({ equal: [['type', 'deployment']] }),
    projects: [PROJECT, OTHER],
    expected: ['events_project_type_time_idx'],
  },
  { name: 'label, several projects', filters: filters({ labels: ['rare'] }), projects: [PROJECT, OTHER], expected: ['event_labels_pkey', 'events_id_idx'] },
];

/**
 * The plans of the read API's own statements (event-list.ts builds them; this
 * runs them through a client that EXPLAINs each as well): EXPLAIN shows an
 * index for each documented filter, and the test fails if a migration drops
 * one a filter needs.
 */
describe('the events indexes serve every documented filter (EXPLAIN)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  /** A partition's table or index → its parent's name. */
  let parents: Map<string, string>;
  /** Partitions without a row: the planner reads an empty table whole, which costs nothing. */
  let empty: Set<string>;
  const wholeReads = (plans: StatementPlan[]) => plans.flatMap((p) => [...p.scans.seqScans]).filter((partition) => !empty.has(partition));

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, root);
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    await loadEvents(pool);
    const { rows } = await pool.query<{ child: string; parent: string }>(
      'SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent',
    );
    parents = new Map(rows.map((r) => [r.child, r.parent]));
    const { rows: none } = await pool.query<{ name: string }>(
      "SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname ~ '^(events|event_labels)_p' AND reltuples = 0",
    );
    empty = new Set(none.map((r) => r.name));
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** Runs `work` on a client that also EXPLAINs (FORMAT JSON) every statement it is given, with the same parameters. */
  async function plansOf(work: (client: Queryable) => Promise<unknown>): Promise<StatementPlan[]> {
    const client = await pool.connect();
    const plans: StatementPlan[] = [];
    try {
      const explaining = {
        query: async (sql: string, values?: unknown[]) => {
          const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
          plans.push({ sql, scans: scansOf(rows[0]!['QUERY PLAN'][0]!.Plan, parents) });
          return client.query(sql, values);
        },
      } as unknown as Queryable;
      await work(explaining);
    } finally {
      client.release();
    }
    return plans;
  }

  it.each(CASES)('$name', async ({ filters, projects, expected }) => {
    const plans = await plansOf(async (client) => {
      await selectEventPage(client, projects ?? [PROJECT], filters, { perPage: 25, offset: 0 });
      await countEvents(client, projects ?? [PROJECT], filters);
    });
    const onEvents = plans.filter((p) => p.scans.indexes.size > 0 || p.scans.seqScans.size > 0);
    const used = new Set(onEvents.flatMap((p) => [...p.scans.indexes]));
    for (const index of expected) expect([...used], `statements:\n${plans.map((p) => p.sql).join('\n')}`).toContain(index);
    // No statement reads a whole partition of events or event_labels.
    expect(wholeReads(plans)).toEqual([]);
  });

  // A preview reads the events of a time on, a replay those received since a time (in every partition).
  it.each([
    { order: 'time' as const, expected: 'events_project_time_idx' },
    { order: 'engine' as const, expected: 'events_project_received_idx' },
  ])('a preview or replay scan in $order order reads $expected', async ({ order, expected }) => {
    const reads = { severity: false, source: false, channel: false, labels: false, attributeKeys: [] };
    const query = previewEventsQuery({ projectKey: PROJECT, since: new Date(now - HOUR), reads, order });
    const plans = await plansOf((client) => client.query(query.text, query.values));
    expect(plans.flatMap((p) => [...p.scans.indexes])).toContain(expected);
    expect(wholeReads(plans)).toEqual([]);
  });

  it('GET /events/:id reads the (id, occurred_at) index', async () => {
    const { rows } = await pool.query<{ id: number }>('SELECT id FROM events WHERE project_key = $1 LIMIT 1', [PROJECT]);
    const plans = await plansOf((client) => selectEvent(client as pg.Pool, [PROJECT], rows[0]!.id));
    expect(plans.flatMap((p) => [...p.scans.indexes])).toContain('events_id_idx');
    expect(wholeReads(plans)).toEqual([]);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The indexes a plan reads and the tables it scans whole, among events' and event_labels' partitions. */
function scansOf(node: PlanNode, parents: Map<string, string>, scans: PlanScans = { indexes: new Set(), seqScans: new Set() }): PlanScans {
  const table = node['Relation Name'] === undefined ? undefined : (parents.get(node['Relation Name']) ?? node['Relation Name']);
  if (table === 'events' || table === 'event_labels') {
    if (node['Index Name'] !== undefined) scans.indexes.add(parents.get(node['Index Name']) ?? node['Index Name']);
    if (node['Node Type'] === 'Seq Scan') scans.seqScans.add(node['Relation Name']!);
  }
  // A bitmap index scan names its index but not its table (the Bitmap Heap Scan above it does).
  if (node['Node Type'] === 'Bitmap Index Scan' && node['Index Name'] !== undefined) scans.indexes.add(parents.get(node['Index Name']) ?? node['Index Name']);
  for (const child of node.Plans ?? []) scansOf(child, parents, scans);
  return scans;
}

/**
 * EVENTS events of the project over the last 36 hours (two day partitions)
 * and a quarter as many of another, with the label rows and daily counts the
 * store writes, then ANALYZE: the planner's statistics, as autovacuum leaves
 * them. The queried values are on one event in 500; the rest are common.
 */
async function loadEvents(pool: pg.Pool): Promise<void> {
  const days = [0, 1, 2].map((d) => iso(now - d * 24 * HOUR).slice(0, 10));
  await pool.query('SELECT store_ensure_day_partitions($1::date[])', [days]);
  for (const [project, count, idBase] of [
    [PROJECT, EVENTS, 0],
    [OTHER, EVENTS / 4, EVENTS],
  ] as const) {
    await pool.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
       SELECT $3::bigint + g, $1,
              CASE WHEN g % 500 = 0 THEN 'deployment' ELSE 'metric' END,
              CASE WHEN g % 500 = 0 THEN 'deploy_failed' ELSE 'cpu_usage' END,
              t, t,
              CASE WHEN g % 500 = 1 THEN 'critical' WHEN g % 2 = 0 THEN 'info' END,
              CASE WHEN g % 500 = 2 THEN 'ch-rare' ELSE 'ch-' || g % 3 END,
              'wf-' || g / 3,
              'host-' || g % 500,
              CASE WHEN g % 500 = 3 THEN ARRAY['rare', 'prod'] WHEN g % 3 = 0 THEN ARRAY['prod'] ELSE ARRAY[]::text[] END,
              '{}'::jsonb
         FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - (g * (36.0 * 3600 / $2)) * interval '1 second' AS t) times`,
      [project, count, idBase],
    );
  }
  await pool.query('INSERT INTO event_labels (project_key, label, occurred_at, event_id) SELECT project_key, unnest(labels), occurred_at, id FROM events');
  await pool.query("INSERT INTO project_daily_events SELECT project_key, (occurred_at AT TIME ZONE 'UTC')::date, count(*) FROM events GROUP BY 1, 2");
  await pool.query('VACUUM ANALYZE events, event_labels, project_daily_events');
}
