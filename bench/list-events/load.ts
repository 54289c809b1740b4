import type pg from 'pg';

/** The hot project: half of all events. The other 99 share the rest. */
export const BENCH_PROJECT = 'bench';
export const PROJECTS = 100;
export const otherProject = (i: number) => `bench-${String(i).padStart(2, '0')}`;
/** Every project's events span the last 30 days (the default retention). */
export const SPAN_DAYS = 30;
const DAY_MS = 86_400_000;

/** Events of the hot project for a total of `count`. */
export const hotCount = (count: number) => Math.floor(count / 2);
/** Events of each other project. */
const otherCount = (count: number) => Math.floor((count - hotCount(count)) / (PROJECTS - 1));
/** What `loadEvents(count)` stores (the others' share rounded down). */
export const loadedTotal = (count: number) => hotCount(count) + otherCount(count) * (PROJECTS - 1);

/**
 * Loads `count` events over 100 projects, half in the hot one, spread evenly
 * over the last 30 days, in the shape the store writes: the day partitions,
 * the events, their label rows and the per-project daily and monthly counters.
 * Generated in SQL (generate_series), one day at a time; the events indexes are
 * dropped for the load and rebuilt from their own definitions afterwards, as a
 * bulk load is done.
 */
export async function loadEvents(client: pg.ClientBase, count: number, log: (line: string) => void): Promise<void> {
  const now = Date.now();
  const days = Array.from({ length: SPAN_DAYS + 1 }, (_, i) => new Date(Math.floor((now - i * DAY_MS) / DAY_MS) * DAY_MS).toISOString().slice(0, 10));
  await client.query('SELECT store_ensure_day_partitions($1::date[])', [days]);
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'events'",
  );
  await client.query('TRUNCATE events, event_labels, project_monthly_usage, project_daily_events');
  for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.indexname)}`);
  let started = performance.now();
  const hot = hotCount(count);
  const perOther = otherCount(count);
  const chunk = 1_000_000;
  // g numbers a project's events oldest first: the hot project's g in [1, hot], the others' in [1, perOther].
  const load = async (project: string, n: number, idBase: number) => {
    for (let from = 1; from <= n; from += chunk) {
      const to = Math.min(n, from + chunk - 1);
      await client.query(
        `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
         SELECT $3::bigint + g, $1,
                (ARRAY['deployment','uptime','error','metric','infrastructure'])[1 + g % 5],
                (ARRAY['deploy_started','deploy_finished','http_check','ping_check','exception','crash','cpu_usage','memory_usage','vpc_change','dns_change'])[1 + (g % 5) * 2 + (g / 5) % 2],
                t, t + interval '1 second',
                (ARRAY['info','info','info','warn','error','critical', NULL])[1 + (g * 7919) % 7],
                CASE WHEN g % 4 <> 0 THEN 'ch-' || (g * 31) % 10 END,
                CASE WHEN g % 2 = 0 THEN 'wf-' || (g / 5) END,
                'host-' || (g * 13) % 50,
                CASE WHEN g % 3 = 0 THEN ARRAY['prod'] WHEN g % 3 = 1 THEN ARRAY['staging', 'team-' || g % 20] ELSE ARRAY[]::text[] END
                  || CASE WHEN g % 1000 = 7 THEN ARRAY['rare'] ELSE ARRAY[]::text[] END,
                jsonb_build_object('value', g % 100, 'host', 'host-' || (g * 13) % 50, 'version', '1.' || g % 40 || '.0')
           FROM generate_series($4::bigint, $5::bigint) g,
                LATERAL (SELECT now() - ($2::bigint - g) * ($6::float8 / $2::bigint) * interval '1 second' AS t) times`,
        [project, n, idBase, from, to, SPAN_DAYS * 86_400 - 60],
      );
    }
  };
  await load(BENCH_PROJECT, hot, 0);
  for (let i = 1; i < PROJECTS; i++) await load(otherProject(i), perOther, hot + (i - 1) * perOther);
  log(`  loaded ${hot + perOther * (PROJECTS - 1)} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await client.query(`INSERT INTO event_labels (project_key, label, occurred_at, event_id) SELECT project_key, unnest(labels), occurred_at, id FROM events`);
  await client.query(`INSERT INTO project_daily_events SELECT project_key, (occurred_at AT TIME ZONE 'UTC')::date, count(*) FROM events GROUP BY 1, 2`);
  await client.query(
    `INSERT INTO project_monthly_usage SELECT project_key, date_trunc('month', received_at AT TIME ZONE 'UTC')::date, count(*) FROM events GROUP BY 1, 2`,
  );
  log(`  label rows and counters in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  // pg_indexes shows a partitioned table's index as ON ONLY (the parent alone); rebuilt on every partition.
  for (const index of indexes) await client.query(index.indexdef.replace(' ON ONLY ', ' ON '));
  await client.query('VACUUM ANALYZE events');
  await client.query('VACUUM ANALYZE event_labels');
  await client.query('VACUUM ANALYZE project_daily_events, project_monthly_usage');
  log(`  rebuilt ${indexes.length} indexes and vacuumed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** How many events are loaded now (0 when none). */
export async function loadedCount(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT sum(event_count)::text AS n FROM project_daily_events');
  return Number(rows[0]?.n ?? 0);
}
