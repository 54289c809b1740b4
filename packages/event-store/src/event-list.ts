import { inReadSnapshot, type Pool, type Queryable } from '@pulseboard/db';
import { hasFilters, type EventFilters, type PageWindow } from './event-filters.ts';

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

const EVENT_COLUMNS = 'id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes';
const E_COLUMNS = EVENT_COLUMNS.split(', ')
  .map((c) => `e.${c}`)
  .join(', ');

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
  /** A label list's own rows (event_labels l), for counting without reading events. */
  labelRows?: { from: string; where: string[] };
}

function compile(filters: EventFilters, project: string, params: unknown[]): Compiled {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.labels.length > 0 && filters.equal.length === 0) {
    const rows = [`l.project_key = ${project}`, `l.label = ${p(filters.labels[0])}`];
    if (filters.since !== undefined) rows.push(`l.occurred_at >= ${p(filters.since)}`);
    if (filters.until !== undefined) rows.push(`l.occurred_at < ${p(filters.until)}`);
    const where = filters.labels.length > 1 ? [`e.labels @> ${p(filters.labels)}::text[]`] : ['true'];
    // The label's rows newest first (OFFSET 0 keeps them a subquery, read in
    // index order), each joined to its event in its own day's partition: the
    // walk stops once the page is full, and the planner never weighs joining
    // every partition of one table with every partition of the other.
    return {
      from: `(SELECT l.occurred_at, l.event_id FROM event_labels l WHERE ${rows.join(' AND ')} ORDER BY l.occurred_at DESC, l.event_id DESC OFFSET 0) l
             CROSS JOIN LATERAL (SELECT * FROM events e WHERE e.occurred_at = l.occurred_at AND e.id = l.event_id) e`,
      where,
      order: 'ORDER BY l.occurred_at DESC, l.event_id DESC',
      labelRows: { from: 'event_labels l', where: rows },
    };
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
export async function selectEventPage(pool: Queryable, projects: readonly string[], filters: EventFilters, page: PageWindow): Promise<EventRow[]> {
  if (projects.length === 0) return [];
  if (filters.labels.length === 1 && filters.equal.length === 0) return selectLabelPage(pool, projects, filters, page);
  if (projects.length === 1) {
    const params: unknown[] = [projects[0]];
    const q = compile(filters, '$1', params);
    params.push(page.perPage, page.offset);
    const { rows } = await pool.query<EventRow>(
      `SELECT ${E_COLUMNS} FROM ${q.from} WHERE ${q.where.join(' AND ')} ${q.order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
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
 * A one-label page in two short statements: the label's rows of the page,
 * newest first (an index-only walk of event_labels that stops after the
 * page), then those events, each looked up in its own day's partition (the
 * times prune the rest). One statement joining the two partitioned tables
 * made the planner weigh every pair of partitions and, misjudging the join,
 * sort every match. Times travel as text: an event's time may carry
 * microseconds, which a JavaScript Date would lose.
 */
async function selectLabelPage(pool: Queryable, projects: readonly string[], filters: EventFilters, page: PageWindow): Promise<EventRow[]> {
  const params: unknown[] = [projects.length === 1 ? projects[0] : projects, filters.labels[0]];
  const where = [projects.length === 1 ? 'l.project_key = $1' : 'l.project_key = p.key', 'l.label = $2'];
  if (filters.since !== undefined) where.push(`l.occurred_at >= $${params.push(filters.since)}`);
  if (filters.until !== undefined) where.push(`l.occurred_at < $${params.push(filters.until)}`);
  const order = 'ORDER BY l.occurred_at DESC, l.event_id DESC';
  const n = params.length;
  const { rows: keys } =
    projects.length === 1
      ? await pool.query<{ at: string; id: string }>(
          `SELECT l.occurred_at::text AS at, l.event_id::text AS id FROM event_labels l WHERE ${where.join(' AND ')} ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
          [...params, page.perPage, page.offset],
        )
      : await pool.query<{ at: string; id: string }>(
          `SELECT m.occurred_at::text AS at, m.event_id::text AS id FROM unnest($1::text[]) AS p(key)
             CROSS JOIN LATERAL (SELECT l.occurred_at, l.event_id FROM event_labels l WHERE ${where.join(' AND ')} ${order} LIMIT $${n + 1}) m
           ORDER BY m.occurred_at DESC, m.event_id DESC LIMIT $${n + 2} OFFSET $${n + 3}`,
          [...params, page.offset + page.perPage, page.perPage, page.offset],
        );
  if (keys.length === 0) return [];
  const { rows } = await pool.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE occurred_at = ANY($1::timestamptz[]) AND id = ANY($2::bigint[]) AND project_key = ANY($3::text[])`,
    [keys.map((k) => k.at), keys.map((k) => k.id), projects],
  );
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return keys.flatMap((k) => byId.get(k.id) ?? []);
}

/**
 * `total_count` of a list. Unfiltered: exact and O(days kept), from the
 * per-project daily counters the store writes in the transaction that writes
 * the events and lowers as retention drops or deletes them. Filtered: counted
 * exactly up to COUNT_CAP matches, so the cost is bounded.
 */
export async function countEvents(pool: Queryable, projects: readonly string[], filters: EventFilters): Promise<{ total: number; exact: boolean }> {
  if (projects.length === 0) return { total: 0, exact: true };
  if (!hasFilters(filters)) {
    const { rows } = await pool.query<{ total: string | null }>(
      'SELECT sum(event_count)::text AS total FROM project_daily_events WHERE project_key = ANY($1::text[])',
      [projects],
    );
    return { total: Number(rows[0]?.total ?? 0), exact: true };
  }
  const params: unknown[] = [projects.length === 1 ? projects[0] : projects];
  const q = compile(filters, projects.length === 1 ? '$1' : 'ANY($1::text[])', params);
  // A one-label count needs no event row: index-only on event_labels.
  const counted = q.labelRows !== undefined && filters.labels.length === 1 ? q.labelRows : q;
  params.push(COUNT_CAP + 1);
  const { rows } = await pool.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${counted.from} WHERE ${counted.where.join(' AND ')} LIMIT $${params.length}) capped`,
    params,
  );
  const total = rows[0]?.total ?? 0;
  return total > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total, exact: true };
}

/** A page and its total from one snapshot: they agree even while the store commits batches. */
export async function selectEventList(
  pool: Pool,
  projects: readonly string[],
  filters: EventFilters,
  page: PageWindow,
): Promise<{ rows: EventRow[]; count: { total: number; exact: boolean } }> {
  if (projects.length === 0) return { rows: [], count: { total: 0, exact: true } };
  return inReadSnapshot(pool, async (client) => ({
    rows: await selectEventPage(client, projects, filters, page),
    count: await countEvents(client, projects, filters),
  }));
}

export async function selectEvent(pool: Pool, projects: readonly string[], id: number): Promise<EventRow | undefined> {
  const { rows } = await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND project_key = ANY($2::text[])`, [id, projects]);
  return rows[0];
}
