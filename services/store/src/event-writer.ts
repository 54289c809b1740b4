import type { Pool } from '@pulseboard/db';
import type { IngestedEvent } from '@pulseboard/contracts';

/**
 * Writes a batch of events with one multi-row statement (UNNEST). Idempotent on
 * the event id: a redelivered event inserts nothing and, because the monthly
 * usage is counted from the rows actually inserted, is not counted twice either.
 * Returns how many events were new.
 */
export async function writeEvents(pool: Pool, events: readonly IngestedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const cols = {
    id: [] as number[],
    project: [] as string[],
    type: [] as string[],
    name: [] as string[],
    occurred: [] as string[],
    received: [] as string[],
    severity: [] as (string | null)[],
    channel: [] as (string | null)[],
    correlation: [] as (string | null)[],
    source: [] as (string | null)[],
    labels: [] as string[],
    attributes: [] as string[],
  };
  for (const e of events) {
    cols.id.push(e.id);
    cols.project.push(e.project_key);
    cols.type.push(e.type);
    cols.name.push(e.name);
    cols.occurred.push(e.timestamp);
    cols.received.push(e.received_at);
    cols.severity.push(e.severity ?? null);
    cols.channel.push(e.channel ?? null);
    cols.correlation.push(e.correlation_id ?? null);
    cols.source.push(e.source ?? null);
    cols.labels.push(JSON.stringify(e.labels ?? []));
    cols.attributes.push(JSON.stringify(e.attributes));
  }
  const result = await pool.query<{ inserted: number }>(
    `WITH input AS (
       SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[],
                            $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[], $12::jsonb[])
         AS t(id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
     ), inserted AS (
       INSERT INTO events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes)
       SELECT id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source,
              ARRAY(SELECT jsonb_array_elements_text(labels)), attributes
         FROM input
       ON CONFLICT (id) DO NOTHING
       RETURNING project_key, received_at
     ), counted AS (
       INSERT INTO project_monthly_usage AS u (project_key, month, event_count)
       SELECT project_key, date_trunc('month', received_at AT TIME ZONE 'UTC')::date, count(*)
         FROM inserted GROUP BY 1, 2
       ON CONFLICT (project_key, month) DO UPDATE SET event_count = u.event_count + EXCLUDED.event_count
       RETURNING event_count
     )
     SELECT (SELECT count(*) FROM inserted)::int AS inserted`,
    [cols.id, cols.project, cols.type, cols.name, cols.occurred, cols.received, cols.severity, cols.channel, cols.correlation, cols.source, cols.labels, cols.attributes],
  );
  return result.rows[0]?.inserted ?? 0;
}
