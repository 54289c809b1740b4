import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, SEVERITIES, type ValidationDetails } from '@pulseboard/contracts';
import type { GatewayDeps } from '../deps.ts';
import { isApiError, readableProjects, resolvePrincipal } from '../auth/principal.ts';
import { errors, sendError } from '../replies.ts';
import { listMeta, parsePage } from './pagination.ts';

interface EventRow {
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

const COLUMNS = 'id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes';

/** A stored event as the read API returns it. */
function present(row: EventRow) {
  return {
    event_id: row.id,
    event_ref: `evt_${row.id}`,
    project_key: row.project_key,
    type: row.type,
    name: row.name,
    timestamp: row.occurred_at.toISOString(),
    received_at: row.received_at.toISOString(),
    severity: row.severity,
    channel: row.channel,
    correlation_id: row.correlation_id,
    source: row.source,
    labels: row.labels,
    attributes: row.attributes,
  };
}

/** `123` and `evt_123` name the same event. */
export function parseEventId(raw: string): number | undefined {
  const match = /^(?:evt_)?(\d{1,16})$/.exec(raw);
  const id = match === null ? NaN : Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const EQUALITY_FILTERS = ['type', 'name', 'severity', 'source', 'channel', 'correlation_id'] as const;

/** WHERE clause of the filters of CONTRACT.md (Lists), parameterised; or validation details. */
export function eventFilters(query: Record<string, unknown>, firstParam: number): { ok: true; sql: string[]; params: unknown[] } | { ok: false; details: ValidationDetails } {
  const details: ValidationDetails = {};
  const sql: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    sql.push(clause.replace('?', `$${firstParam + params.length - 1}`));
  };
  for (const name of EQUALITY_FILTERS) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') details[name] = ["can't be blank"];
    else if (name === 'type' && !(EVENT_TYPES as readonly string[]).includes(value)) details[name] = ['is not included in the list'];
    else if (name === 'severity' && !(SEVERITIES as readonly string[]).includes(value)) details[name] = ['is not included in the list'];
    else add(`${name} = ?`, value);
  }
  const label = query.label;
  if (label !== undefined) {
    if (typeof label !== 'string' || label === '') details.label = ["can't be blank"];
    else add('labels @> ARRAY[?]::text[]', label);
  }
  for (const [name, op] of [['since', '>='], ['until', '<']] as const) {
    const value = query[name];
    if (value === undefined) continue;
    const time = typeof value === 'string' ? Date.parse(value) : NaN;
    if (Number.isNaN(time)) details[name] = ['is not a valid ISO 8601 timestamp'];
    else add(`occurred_at ${op} ?`, new Date(time).toISOString());
  }
  return Object.keys(details).length > 0 ? { ok: false, details } : { ok: true, sql, params };
}

/** GET /api/v1/events and /api/v1/events/:id, scoped to what the credential may read. */
export function registerEventRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/api/v1/events', async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    const query = request.query as Record<string, unknown>;
    const paging = parsePage(query);
    const filters = eventFilters(query, 2);
    if (!paging.ok || !filters.ok) {
      const problems = { ...(paging.ok ? {} : paging.details), ...(filters.ok ? {} : filters.details) };
      return sendError(reply, 'envelope', errors.validation(problems, 'Invalid query parameters'));
    }
    const page = paging.page;
    const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
    const projects = await readableProjects(principal, deps.pool, requested);
    if (requested !== undefined && projects.length === 0) return sendError(reply, 'envelope', errors.notFound('Project'));
    const where = ['project_key = ANY($1::text[])', ...filters.sql].join(' AND ');
    const params = [projects, ...filters.params];
    const [rows, count] = await Promise.all([
      deps.pool.query<EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY occurred_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.perPage, page.offset],
      ),
      deps.pool.query<{ total: number }>(`SELECT count(*)::bigint AS total FROM events WHERE ${where}`, params),
    ]);
    return reply.send({ data: rows.rows.map(present), meta: listMeta(page, count.rows[0]?.total ?? 0) });
  });

  app.get<{ Params: { id: string } }>('/api/v1/events/:id', async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    const id = parseEventId(request.params.id);
    if (id === undefined) return sendError(reply, 'envelope', errors.notFound('Event'));
    const projects = await readableProjects(principal, deps.pool);
    const { rows } = await deps.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = $1 AND project_key = ANY($2::text[])`, [id, projects]);
    const row = rows[0];
    return row === undefined ? sendError(reply, 'envelope', errors.notFound('Event')) : reply.send({ data: present(row) });
  });
}
