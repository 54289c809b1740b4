import type { Pool } from '@pulseboard/db';
import type { EventFilters } from './event-filters.ts';
import type { Page } from './pagination.ts';

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

/**
 * Above this many matches a filtered list stops counting: `total_count` is
 * then this number, a lower bound, and the response says so in
 * `X-Total-Count-Exact: false` (the relation Elasticsearch's track_total_hits
 * reports). Counting every match of a broad filter over a million events costs
 * 60-330 ms; counting to the cap reads at most this many index entries (a few
 * ms), or for a label filter this many heap rows (10-25 ms, the most expensive
 * case, which is why the cap is not higher). bench/list-events measures it.
 */
export const COUNT_CAP = 5_000;

const ORDER = 'ORDER BY occurred_at DESC, id DESC';

/**
 * One page, newest first. Always `project_key = $1` per project, never
 * `= ANY(...)`: only the equality lets Postgres walk a (project_key, <filter>,
 * occurred_at, id) index in order and stop after one page. Several projects
 * (a user token) take each project's first offset+per_page rows and merge them.
 */
export async function selectEventPage(pool: Pool, projects: readonly string[], filters: EventFilters, page: Page): Promise<EventRow[]> {
  if (projects.length === 0) return [];
  const and = filters.sql.map((clause) => ` AND ${clause}`).join('');
  const n = filters.params.length;
  if (projects.length === 1) {
    const { rows } = await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE project_key = $1${and} ${ORDER} LIMIT $${n + 2} OFFSET $${n + 3}`, [
      projects[0],
      ...filters.params,
      page.perPage,
      page.offset,
    ]);
    return rows;
  }
  const { rows } = await pool.query<EventRow>(
    `SELECT e.* FROM unnest($1::text[]) AS p(key)
       CROSS JOIN LATERAL (SELECT ${EVENT_COLUMNS} FROM events WHERE project_key = p.key${and} ${ORDER} LIMIT $${n + 2}) e
     ${ORDER} LIMIT $${n + 3} OFFSET $${n + 4}`,
    [projects, ...filters.params, page.offset + page.perPage, page.perPage, page.offset],
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
  if (filters.sql.length === 0) {
    const { rows } = await pool.query<{ total: string | null }>('SELECT sum(event_count)::text AS total FROM project_monthly_usage WHERE project_key = ANY($1::text[])', [projects]);
    return { total: Number(rows[0]?.total ?? 0), exact: true };
  }
  const and = filters.sql.map((clause) => ` AND ${clause}`).join('');
  const project = projects.length === 1 ? 'project_key = $1' : 'project_key = ANY($1::text[])';
  const { rows } = await pool.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM events WHERE ${project}${and} LIMIT $${filters.params.length + 2}) capped`,
    [projects.length === 1 ? projects[0] : projects, ...filters.params, COUNT_CAP + 1],
  );
  const total = rows[0]?.total ?? 0;
  return total > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total, exact: true };
}

export async function selectEvent(pool: Pool, projects: readonly string[], id: number): Promise<EventRow | undefined> {
  const { rows } = await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND project_key = ANY($2::text[])`, [id, projects]);
  return rows[0];
}
