import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { EVENT_TYPES, PulseboardError, SEVERITIES, storedEventSchema } from '@pulseboard/contracts';
import { AUTHENTICATED, data, errors, listQuery, page, SECURITY } from '../openapi/route-docs.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook, readableProjects } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { parseEventFilters } from '../params/event-filters.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { selectEvent, selectEventList, type EventRow } from '@pulseboard/event-store';

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

  const eventsQuery = listQuery({
    project_key: { type: 'string', description: 'One project of the account (a user token); default: every readable project' },
    type: { type: 'string', enum: EVENT_TYPES },
    name: { type: 'string' },
    severity: { type: 'string', enum: SEVERITIES },
    source: { type: 'string' },
    channel: { type: 'string' },
    correlation_id: { type: 'string' },
    label: { type: 'array', items: { type: 'string' }, description: 'Repeatable: every label given must be on the event' },
    since: { type: 'string', format: 'date-time', description: "Inclusive lower bound of the event's own timestamp (a date, or a date-time with an offset)" },
    until: { type: 'string', format: 'date-time', description: 'Exclusive upper bound' },
  });
  app.get(
    '/api/v1/events',
    {
      onRequest: authenticate,
      config: { openapi: { querystring: eventsQuery } },
      schema: {
        tags: ['events'],
        summary: 'List stored events, newest first',
        description:
          'Filters combine with AND. Any other query parameter (full-text `q`, `attributes.*`) is refused with 400, not ignored. `X-Total-Count-Exact: false` when `meta.total_count` is a lower bound (the count stops at a cap).',
        security: SECURITY.projectKeyOrUserToken,
        response: {
          200: {
            ...page(storedEventSchema, 'A page of events'),
            headers: { 'x-total-count-exact': { type: 'string', enum: ['true', 'false'], description: 'Whether meta.total_count is exact or a lower bound' } },
          },
          ...errors('envelope', [400, 403, 404, ...AUTHENTICATED]),
        },
      },
    },
    async (request, reply) => {
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
    },
  );

  const eventDoc = {
    tags: ['events'],
    summary: 'One stored event',
    security: SECURITY.projectKeyOrUserToken,
    response: { 200: data(storedEventSchema, 'The event'), ...errors('envelope', [403, 404, ...AUTHENTICATED]) },
  };
  const eventParams = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', pattern: '^(evt_)?[0-9]+$', description: 'The event id: `123` or `evt_123`' } },
  };
  app.get<{ Params: { id: string } }>(
    '/api/v1/events/:id',
    { onRequest: authenticate, config: { openapi: { params: eventParams } }, schema: eventDoc },
    async (request, reply) => {
      const id = parseEventId(request.params.id);
      if (id === undefined) throw notFound('Event');
      const row = await selectEvent(deps.pool, await readableProjects(request.principal!, deps.pool), id);
      if (row === undefined) throw notFound('Event');
      return reply.send({ data: present(row) });
    },
  );
}
