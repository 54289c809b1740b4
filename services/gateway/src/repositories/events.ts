import type { Pool } from '@pulseboard/db';
import { hasFilters, type EventFilters } from '../params/event-filters.ts';
import type { Page } from '../params/pagination.ts';

export interface EventRow {
  id: number;
  project_key: string;
  type: string;
  name: string;
  occurred_at: Date;
  received_at: Date;
  severity: string | null;
  channel: string | null;
  correlation_id: string | null;
  source: string | null;
  labels: string[];
  attributes: Record<string, unknown>;
}

export const EVENT_COLUMNS = 'id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes';
const E_COLUMNS = EVENT_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');

/**
 * Above this many matches a filtered list stops counting: `total_count` is
 * then this number, a lower bound, and the response says so in
 * `X-Total-Count-Exact: false` (the relation Elasticsearch's track_total_hits
 * reports). Counting every match of a broad filter over a million events costs
 * 60-330 ms; counting to the cap reads at most this many index entries.
 * bench/list-events measures both.
 */
export const COUNT_CAP = 10_000;

/**
 * A statement's filter clauses. `project` is the SQL naming the project (a
 * parameter or a lateral column). Label-only lists (labels, optionally with
 * since/until) are read from event_labels, whose (project_key, label,
 * occurred_at, event_id) key gives them in order whatever the label's
 * frequency; with any equality filter, that filter's (project_key, column,
 * occurred_at, id) index drives and labels are checked on the row.
 */
interface Compiled {
  from: string;
  where: string[];
  order: string;
}

function compile(filters: EventFilters, project: string, params: unknown[]): Compiled {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.labels.length > 0 && filters.equal.length === 0) {
    const where = [`l.project_key = ${project}`, `l.label = ${p(filters.labels[0])}`];
    if (filters.since !== undefined) where.push(`l.occurred_at >= ${p(filters.since)}`);
    if (filters.until !== undefined) where.push(`l.occurred_at < ${p(filters.until)}`);
    if (filters.labels.length > 1) where.push(`e.labels @> ${p(filters.labels)}::text[]`);
    return { from: 'event_labels l JOIN events e ON e.id = l.event_id', where, order: 'ORDER BY l.occurred_at DESC, l.event_id DESC' };
  }
  const where = [`e.project_key = ${project}`];
  // Column names come from EQUALITY_FILTERS, never from the request.
  for (const [column, value] of filters.equal) where.push(`e.${column} = ${p(value)}`);
  if (filters.labels.length > 0) where.push(`e.labels @> ${p(filters.labels)}::text[]`);
  if (filters.since !== undefined) where.push(`e.occurred_at >= ${p(filters.since)}`);
  if (filters.until !== undefined) where.push(`e.occurred_at < ${p(filters.until)}`);
  return { from: 'events e', where, order: 'ORDER BY e.occurred_at DESC, e.id DESC' };
}

/**
 * One page, newest first. Always one project per statement (`= $1`, never
 * `= ANY(...)`): only equality lets Postgres walk an index in order and stop
 * after one page. Several projects (a user token) take each project's first
 * offset+per_page rows and merge them.
 */
export async function selectEventPage(pool: Pool, projects: readonly string[], filters: EventFilters, page: Page): Promise<EventRow[]> {
  if (projects.length === 0) return [];
  if (projects.length === 1) {
    const params: unknown[] = [projects[0]];
    const q = compile(filters, '$1', params);
    params.push(page.perPage, page.offset);
    const { rows } = await pool.query<EventRow>(`SELECT ${E_COLUMNS} FROM ${q.from} WHERE ${q.where.join(' AND ')} ${q.order} LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
    return rows;
  }
  const params: unknown[] = [projects];
  const q = compile(filters, 'p.key', params);
  params.push(page.offset + page.perPage, page.perPage, page.offset);
  const n = params.length;
  const { rows } = await pool.query<EventRow>(
    `SELECT m.* FROM unnest($1::text[]) AS p(key)
       CROSS JOIN LATERAL (SELECT ${E_COLUMNS} FROM ${q.from} WHERE ${q.where.join(' AND ')} ${q.order} LIMIT $${n - 2}) m
     ORDER BY m.occurred_at DESC, m.id DESC LIMIT $${n - 1} OFFSET $${n}`,
    params,
  );
  return rows;
}

/**
 * `total_count` of a list. Unfiltered: exact and O(months), from the per-project
 * monthly counters the store writes in the same statement as the events (the
 * store never deletes events; if it ever does, it must decrement them too).
 * Filtered: counted exactly up to COUNT_CAP matches, so the cost is bounded.
 */
export async function countEvents(pool: Pool, projects: readonly string[], filters: EventFilters): Promise<{ total: number; exact: boolean }> {
  if (projects.length === 0) return { total: 0, exact: true };
  if (!hasFilters(filters)) {
    const { rows } = await pool.query<{ total: string | null }>('SELECT sum(event_count)::text AS total FROM project_monthly_usage WHERE project_key = ANY($1::text[])', [projects]);
    return { total: Number(rows[0]?.total ?? 0), exact: true };
  }
  const params: unknown[] = [projects.length === 1 ? projects[0] : projects];
  const q = compile(filters, projects.length === 1 ? '$1' : 'ANY($1::text[])', params);
  // A label-only count needs no event row: index-only on event_labels.
  const from = q.from.startsWith('event_labels') && filters.labels.length === 1 ? 'event_labels l' : q.from;
  params.push(COUNT_CAP + 1);
  const { rows } = await pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM (SELECT 1 FROM ${from} WHERE ${q.where.join(' AND ')} LIMIT $${params.length}) capped`, params);
  const total = rows[0]?.total ?? 0;
  return total > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total, exact: true };
}

export async function selectEvent(pool: Pool, projects: readonly string[], id: number): Promise<EventRow | undefined> {
  const { rows } = await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND project_key = ANY($2::text[])`, [id, projects]);
  return rows[0];
}
