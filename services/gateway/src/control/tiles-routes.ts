import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError, tileRuleProblems, tileRuleSchema, type ValidationDetails } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { accountOf, principalHook, readableProjects } from '../auth/principal.ts';
import { ownedServiceIds } from '../repositories/notifications.ts';
import { selectEventUnits } from '@pulseboard/event-store';
import { findTileState, selectTileGroups, selectTileHistory } from '@pulseboard/tile-state-store';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { deleteTile, findTile, insertTile, listTiles, updateTile, type TileRecord } from '../repositories/tiles.ts';
import { registerTilePreview } from './tile-preview-route.ts';
import { registerTileReplay } from './tile-replay-route.ts';
import { parseTimeWindow } from '../params/time-window.ts';
import type { ControlFeed } from '../repositories/control-writes.ts';
import { presentTile, presentTileGroups, presentTileHistory, presentTileState, tileUnit } from './present.ts';
import { tileHistoryEntrySchema, tileSchema, tileStateSchema } from '@pulseboard/contracts';
import { AUTHENTICATED, BODY_ERRORS, data, errors, idParams, listQuery, noContent, page, SECURITY } from '../openapi/route-docs.ts';
import { createTileBody, MAX_RULE_BYTES, updateTileBody, type CreateTileBody, type UpdateTileBody } from './tile-schemas.ts';

export interface TileRouteDeps {
  /** MAX_TILES_PER_PROJECT: the documented cap (docs/read-api.md). */
  maxTilesPerProject: number;
  /** PREVIEW_TIME_LIMIT_MS: POST /tiles/preview's budget for reading events. */
  previewTimeLimitMs: number;
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  controlFeed: ControlFeed;
}

declare module 'fastify' {
  interface FastifyRequest {
    targetTile?: TileRecord;
  }
}

type WithId = { Params: { id: string } };

const HOUR_MS = 3_600_000;
/** GET /tiles/:id/history: the last hour unless `since` says otherwise, a day at most (read-api.md). */
export const HISTORY_WINDOW = { defaultMs: HOUR_MS, maxMs: 24 * HOUR_MS };

function invalid(details: ValidationDetails): PulseboardError {
  return new PulseboardError('validation_error', { details });
}

/**
 * What the rule's schema cannot check: its serialised size (it is bounded in
 * depth by the schema, so this cannot overflow), duration maxima and level order.
 */
function checkRule(rule: unknown): void {
  if (rule === undefined) return;
  if (Buffer.byteLength(JSON.stringify(rule)) > MAX_RULE_BYTES) throw invalid({ rule: [`is too large (maximum is ${MAX_RULE_BYTES} bytes)`] });
  const problems = tileRuleProblems(rule);
  if (problems !== null) throw invalid(problems);
}

/**
 * Tiles (spec 4.5 reads; CONTRACT.md adds create, update, delete) with a user
 * token or the project's key. GET /tiles/:id/state reads what the rule engine
 * committed (the engine owns tile state): a tile it has not evaluated yet is
 * `unknown` at version 0 since its creation.
 */
export function registerTileRoutes(app: FastifyInstance, deps: TileRouteDeps): void {
  // A tile names only its own account's notification services; another account's look like missing ones.
  const checkServices = async (ids: number[] | undefined, accountId: number) => {
    if (ids === undefined || ids.length === 0) return;
    const owned = await ownedServiceIds(deps.pool, accountId, ids);
    const missing = ids.filter((id) => !owned.has(id));
    if (missing.length > 0) throw invalid({ notification_service_ids: [`has no notification service ${missing.join(', ')}`] });
  };
  app.register(async (api) => {
    for (const schema of [tileRuleSchema, createTileBody, updateTileBody]) api.addSchema(schema);
    api.addHook('onRequest', principalHook(deps.auth));

    // Before body validation: a foreign or missing tile is 404 whatever the body says.
    const loadTile = async (request: FastifyRequest<WithId>) => {
      const id = parseNumericId(request.params.id);
      const projects = await readableProjects(request.principal!, deps.pool);
      const tile = id === undefined ? undefined : await findTile(deps.pool, projects, id);
      if (tile === undefined) throw notFound('Tile');
      request.targetTile = tile;
    };

    const doc = (summary: string, response: object) => ({ tags: ['tiles'], summary, security: SECURITY.projectKeyOrUserToken, response });
    const withId = { preValidation: loadTile, config: { openapi: { params: idParams } } };
    const tilesQuery = listQuery({ project_key: { type: 'string', description: 'One project (a user token); default: every readable project' } });
    api.get(
      '/api/v1/tiles',
      {
        config: { openapi: { querystring: tilesQuery } },
        schema: doc('List tiles, by project and position', { 200: page(tileSchema, 'A page of tiles'), ...errors('envelope', [400, 404, ...AUTHENTICATED]) }),
      },
      async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const paging = parsePage(query);
        if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
        const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
        const projects = await readableProjects(request.principal!, deps.pool, requested);
        if (requested !== undefined && projects.length === 0) throw notFound('Project');
        const { rows, total } = await listTiles(deps.pool, projects, paging.page);
        return reply.send({ data: rows.map(presentTile), meta: listMeta(paging.page, total) });
      },
    );

    api.get<WithId>(
      '/api/v1/tiles/:id',
      { ...withId, schema: doc('One tile', { 200: data(tileSchema, 'The tile'), ...errors('envelope', [404, ...AUTHENTICATED]) }) },
      async (request, reply) => reply.send({ data: presentTile(request.targetTile!) }),
    );

    // A grouped tile's groups come a page at a time: 100 unless per_page says fewer.
    const stateQuery = listQuery();
    stateQuery.properties.page = { ...stateQuery.properties.page, description: 'A grouped tile: the page of `groups`, from 1' };
    stateQuery.properties.per_page = { ...stateQuery.properties.per_page, default: 100, description: 'A grouped tile: groups per page (at most 100)' };
    api.get<WithId>(
      '/api/v1/tiles/:id/state',
      {
        preValidation: loadTile,
        config: { openapi: { params: idParams, querystring: stateQuery } },
        schema: doc("The tile's state as the rule engine committed it (`unknown`, version 0, before its first change); a grouped tile's groups, worst first", {
          200: data(tileStateSchema, 'The state'),
          ...errors('envelope', [400, 404, ...AUTHENTICATED]),
        }),
      },
      async (request, reply) => {
        const tile = request.targetTile!;
        const state = presentTileState(tile, await findTileState(deps.pool, tile.id));
        const groupBy = (tile.rule as { group_by?: unknown }).group_by;
        if (typeof groupBy !== 'string') return reply.send({ data: state });
        const paging = parsePage({ per_page: '100', ...(request.query as Record<string, unknown>) });
        if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
        const groups = await selectTileGroups(deps.pool, tile.id, paging.page);
        return reply.send({ data: { ...state, ...presentTileGroups(groupBy, groups), groups_meta: listMeta(paging.page, groups.total) } });
      },
    );

    const historyQuery = listQuery({
      since: {
        type: 'string',
        format: 'date-time',
        description: 'Inclusive lower bound of `changed_at`; default: an hour before `until`; at most 24 h before it',
      },
      until: { type: 'string', format: 'date-time', description: 'Exclusive upper bound of `changed_at`; default: now' },
      group: {
        type: 'string',
        maxLength: 256,
        description: "A grouped tile: this group's changes (its key, as in `groups` of the state); default: the tile's own",
      },
    });
    const historyDoc = doc("The tile's changes in a time window, newest first, as the rule engine recorded them", {
      200: page(tileHistoryEntrySchema, 'A page of changes'),
      ...errors('envelope', [400, 404, ...AUTHENTICATED]),
    });
    api.get<WithId>(
      '/api/v1/tiles/:id/history',
      { preValidation: loadTile, config: { openapi: { params: idParams, querystring: historyQuery } }, schema: historyDoc },
      async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const paging = parsePage(query);
        const window = parseTimeWindow(query, HISTORY_WINDOW, Date.now());
        if (!paging.ok || !window.ok) {
          const details = { ...(paging.ok ? {} : paging.details), ...(window.ok ? {} : window.details) };
          throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details });
        }
        const tile = request.targetTile!;
        const group = typeof query.group === 'string' && query.group !== '' ? query.group : undefined;
        if (group !== undefined && group.length > 256) throw invalid({ group: ['is too long (maximum is 256 characters)'] });
        const { rows, total } = await selectTileHistory(deps.pool, tile.id, window.window.since, window.window.until, paging.page, group);
        // The tile's own unit wins; else each change shows its event's `unit`, while the store keeps the event.
        const unit = tileUnit(tile);
        const eventIds = unit === null ? rows.flatMap((row) => (row.event_id === null ? [] : [row.event_id])) : [];
        const eventUnits = await selectEventUnits(deps.pool, tile.project_key, eventIds);
        const unitOf = (eventId: number | null) => unit ?? (eventId === null ? null : (eventUnits.get(eventId) ?? null));
        const present = (row: (typeof rows)[number]) => ({ ...presentTileHistory(tile, row, unitOf(row.event_id)), ...(group === undefined ? {} : { group }) });
        return reply.send({ data: rows.map(present), meta: listMeta(paging.page, total) });
      },
    );

    registerTilePreview(api, deps.pool, checkRule, deps.previewTimeLimitMs);
    registerTileReplay(api, deps.pool, loadTile, deps.previewTimeLimitMs);

    api.post<{ Body: CreateTileBody }>(
      '/api/v1/tiles',
      {
        schema: {
          body: { $ref: createTileBody.$id },
          ...doc('Create a tile', { 201: data(tileSchema, 'The tile'), ...errors('envelope', [...BODY_ERRORS, 404, ...AUTHENTICATED]) }),
        },
      },
      async (request, reply) => {
        const principal = request.principal!;
        const projectKey = request.body.project_key ?? (principal.kind === 'project' ? principal.project.projectKey : undefined);
        if (projectKey === undefined) throw invalid({ project_key: ["can't be blank"] });
        checkRule(request.body.rule);
        const [visible] = await readableProjects(principal, deps.pool, projectKey);
        if (visible === undefined) throw notFound('Project');
        await checkServices(request.body.notification_service_ids, accountOf(principal));
        const tile = await insertTile(deps.pool, deps.controlFeed, visible, request.body, deps.maxTilesPerProject);
        if (tile === 'full')
          throw new PulseboardError('resource_limit_reached', {
            message: `A project has at most ${deps.maxTilesPerProject} tiles (MAX_TILES_PER_PROJECT); delete one first`,
          });
        return reply.code(201).send({ data: presentTile(tile) });
      },
    );

    api.put<WithId & { Body: UpdateTileBody }>(
      '/api/v1/tiles/:id',
      {
        ...withId,
        schema: {
          body: { $ref: updateTileBody.$id },
          ...doc('Change a tile', { 200: data(tileSchema, 'The tile as changed'), ...errors('envelope', [...BODY_ERRORS, 404, ...AUTHENTICATED]) }),
        },
      },
      async (request, reply) => {
        if (Object.keys(request.body).length === 0)
          throw invalid({ base: ['must change at least one of name, kind, rule, settings, position, notification_service_ids'] });
        checkRule(request.body.rule);
        await checkServices(request.body.notification_service_ids, accountOf(request.principal!));
        const tile = await updateTile(deps.pool, deps.controlFeed, request.targetTile!, request.body);
        if (tile === undefined) throw notFound('Tile');
        return reply.send({ data: presentTile(tile) });
      },
    );

    api.delete<WithId>(
      '/api/v1/tiles/:id',
      { ...withId, schema: doc('Delete a tile', { ...noContent, ...errors('envelope', [404, ...AUTHENTICATED]) }) },
      async (request, reply) => {
        if (!(await deleteTile(deps.pool, deps.controlFeed, request.targetTile!))) throw notFound('Tile');
        return reply.code(204).send();
      },
    );
  });
}
