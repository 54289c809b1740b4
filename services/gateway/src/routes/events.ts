import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { isApiError, readableProjects, resolvePrincipal } from '../auth/principal.ts';
import { errors, sendError } from '../replies.ts';
import { listMeta, parsePage } from './pagination.ts';
import { parseEventFilters } from './event-filters.ts';
import { countEvents, selectEvent, selectEventPage, type EventRow } from './events-query.ts';

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

/** GET /api/v1/events and /api/v1/events/:id, scoped to what the credential may read. */
export function registerEventRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/api/v1/events', async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    const query = request.query as Record<string, unknown>;
    const paging = parsePage(query);
    const parsed = parseEventFilters(query);
    if (!paging.ok || !parsed.ok) {
      const problems = { ...(paging.ok ? {} : paging.details), ...(parsed.ok ? {} : parsed.details) };
      return sendError(reply, 'envelope', errors.validation(problems, 'Invalid query parameters'));
    }
    const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
    const projects = await readableProjects(principal, deps.pool, requested);
    if (requested !== undefined && projects.length === 0) return sendError(reply, 'envelope', errors.notFound('Project'));
    const [rows, count] = await Promise.all([selectEventPage(deps.pool, projects, parsed.filters, paging.page), countEvents(deps.pool, projects, parsed.filters)]);
    // Beyond the spec's meta: whether total_count is exact or the COUNT_CAP lower bound.
    reply.header('x-total-count-exact', String(count.exact));
    return reply.send({ data: rows.map(present), meta: listMeta(paging.page, count.total) });
  });

  app.get<{ Params: { id: string } }>('/api/v1/events/:id', async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    const id = parseEventId(request.params.id);
    if (id === undefined) return sendError(reply, 'envelope', errors.notFound('Event'));
    const row = await selectEvent(deps.pool, await readableProjects(principal, deps.pool), id);
    return row === undefined ? sendError(reply, 'envelope', errors.notFound('Event')) : reply.send({ data: present(row) });
  });
}
