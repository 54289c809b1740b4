import type pg from 'pg';

export const BENCH_PROJECT = 'bench';
export const NOISE_PROJECT = 'bench-noise';
/** Seconds between two events of the bench project: 1,000,000 events span 30 days. */
export const SPACING_SECONDS = 2.592;

/**
 * Loads `count` events for one project (and a fifth as many for another, so
 * that every query must scope by project) with SQL generate_series, in the
 * shape the store writes: the events and their per-project monthly counters.
 * The events indexes are dropped for the load and rebuilt from their own
 * definitions (those of the migrations) afterwards, which is how a bulk load
 * is done and takes seconds instead of minutes; the label trigger runs as in
 * production, once per statement.
 */
export async function loadEvents(client: pg.ClientBase, count: number, log: (line: string) => void): Promise<void> {
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'events' AND indexname <> 'events_pkey'",
  );
  await client.query('TRUNCATE events, event_labels, project_monthly_usage');
  for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.indexname)}`);
  let started = performance.now();
  for (const [project, n] of [[BENCH_PROJECT, count], [NOISE_PROJECT, Math.floor(count / 5)]] as const) {
    const idBase = project === BENCH_PROJECT ? 0 : count;
    await client.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
       SELECT $3::bigint + g, $1,
              (ARRAY['deployment','uptime','error','metric','infrastructure'])[1 + g % 5],
              (ARRAY['deploy_started','deploy_finished','http_check','ping_check','exception','crash','cpu_usage','memory_usage','vpc_change','dns_change'])[1 + (g % 5) * 2 + (g / 5) % 2],
              now() - (($2::bigint - g) * make_interval(secs => ${SPACING_SECONDS})),
              now() - (($2::bigint - g) * make_interval(secs => ${SPACING_SECONDS})) + interval '1 second',
              (ARRAY['info','info','info','warn','error','critical', NULL])[1 + (g * 7919) % 7],
              'ch-' || (g * 31) % 10,
              'wf-' || (g / 5),
              'host-' || (g * 13) % 50,
              CASE WHEN g % 3 = 0 THEN ARRAY['prod'] WHEN g % 3 = 1 THEN ARRAY['staging', 'team-' || g % 20] ELSE ARRAY[]::text[] END
                || CASE WHEN g % 1000 = 7 THEN ARRAY['rare'] ELSE ARRAY[]::text[] END,
              jsonb_build_object('value', g % 100, 'host', 'host-' || (g * 13) % 50, 'version', '1.' || g % 40 || '.0')
         FROM generate_series(1::bigint, $2::bigint) g`,
      [project, n, idBase],
    );
  }
  await client.query(
    `INSERT INTO project_monthly_usage (project_key, month, event_count)
     SELECT project_key, date_trunc('month', received_at AT TIME ZONE 'UTC')::date, count(*) FROM events GROUP BY 1, 2`,
  );
  log(`  loaded ${count + Math.floor(count / 5)} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  for (const index of indexes) await client.query(index.indexdef);
  await client.query('VACUUM ANALYZE events');
  await client.query('VACUUM ANALYZE project_monthly_usage');
  await client.query('VACUUM ANALYZE event_labels');
  log(`  rebuilt ${indexes.length} indexes and vacuumed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** How many events the bench project holds now (0 when not loaded). */
export async function loadedCount(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT sum(event_count)::text AS n FROM project_monthly_usage WHERE project_key = $1', [BENCH_PROJECT]);
  return Number(rows[0]?.n ?? 0);
}
