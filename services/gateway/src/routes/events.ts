import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook, readableProjects } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { parseEventFilters } from '../params/event-filters.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { selectEvent, selectEventList, type EventRow } from '../repositories/events.ts';

export interface EventRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
}

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
function parseEventId(raw: string): number | undefined {
  const match = /^(?:evt_)?(\d{1,16})$/.exec(raw);
  const id = match === null ? NaN : Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** GET /api/v1/events and /api/v1/events/:id, scoped to what the credential may read. */
export function registerEventRoutes(app: FastifyInstance, deps: EventRouteDeps): void {
  const authenticate = principalHook(deps.auth);

  app.get('/api/v1/events', { onRequest: authenticate }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const paging = parsePage(query);
    const parsed = parseEventFilters(query);
    if (!paging.ok || !parsed.ok) {
      const details = { ...(paging.ok ? {} : paging.details), ...(parsed.ok ? {} : parsed.details) };
      throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details });
    }
    const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
    const projects = await readableProjects(request.principal!, deps.pool, requested);
    if (requested !== undefined && projects.length === 0) throw notFound('Project');
    const { rows, count } = await selectEventList(deps.pool, projects, parsed.filters, paging.page);
    // Beyond the spec's meta: whether total_count is exact or the COUNT_CAP lower bound.
    reply.header('x-total-count-exact', String(count.exact));
    return reply.send({ data: rows.map(present), meta: listMeta(paging.page, count.total) });
  });

  app.get<{ Params: { id: string } }>('/api/v1/events/:id', { onRequest: authenticate }, async (request, reply) => {
    const id = parseEventId(request.params.id);
    if (id === undefined) throw notFound('Event');
    const row = await selectEvent(deps.pool, await readableProjects(request.principal!, deps.pool), id);
    if (row === undefined) throw notFound('Event');
    return reply.send({ data: present(row) });
  });
}
