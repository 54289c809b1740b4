import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError, tileRuleProblems, tileRuleSchema, type ValidationDetails } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { accountOf, principalHook, readableProjects } from '../auth/principal.ts';
import { ownedServiceIds } from '../repositories/notifications.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { deleteTile, findTile, insertTile, listTiles, updateTile, type TileRecord } from '../repositories/tiles.ts';
import { findTileState } from '../repositories/tile-states.ts';
import { presentTile, presentTileState } from './present.ts';
import { createTileBody, MAX_RULE_BYTES, updateTileBody, type CreateTileBody, type UpdateTileBody } from './tile-schemas.ts';

export interface TileRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
}

declare module 'fastify' {
  interface FastifyRequest {
    targetTile?: TileRecord;
  }
}

type WithId = { Params: { id: string } };

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

    api.get('/api/v1/tiles', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const paging = parsePage(query);
      if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
      const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
      const projects = await readableProjects(request.principal!, deps.pool, requested);
      if (requested !== undefined && projects.length === 0) throw notFound('Project');
      const { rows, total } = await listTiles(deps.pool, projects, paging.page);
      return reply.send({ data: rows.map(presentTile), meta: listMeta(paging.page, total) });
    });

    api.get<WithId>('/api/v1/tiles/:id', { preValidation: loadTile }, async (request, reply) => reply.send({ data: presentTile(request.targetTile!) }));

    api.get<WithId>('/api/v1/tiles/:id/state', { preValidation: loadTile }, async (request, reply) => {
      const tile = request.targetTile!;
      return reply.send({ data: presentTileState(tile, await findTileState(deps.pool, tile.id)) });
    });

    api.post<{ Body: CreateTileBody }>('/api/v1/tiles', { schema: { body: { $ref: createTileBody.$id } } }, async (request, reply) => {
      const principal = request.principal!;
      const projectKey = request.body.project_key ?? (principal.kind === 'project' ? principal.project.projectKey : undefined);
      if (projectKey === undefined) throw invalid({ project_key: ["can't be blank"] });
      checkRule(request.body.rule);
      const [visible] = await readableProjects(principal, deps.pool, projectKey);
      if (visible === undefined) throw notFound('Project');
      await checkServices(request.body.notification_service_ids, accountOf(principal));
      const tile = await insertTile(deps.pool, visible, request.body);
      return reply.code(201).send({ data: presentTile(tile) });
    });

    api.put<WithId & { Body: UpdateTileBody }>('/api/v1/tiles/:id', { preValidation: loadTile, schema: { body: { $ref: updateTileBody.$id } } }, async (request, reply) => {
      if (Object.keys(request.body).length === 0) throw invalid({ base: ['must change at least one of name, kind, rule, settings, position, notification_service_ids'] });
      checkRule(request.body.rule);
      await checkServices(request.body.notification_service_ids, accountOf(request.principal!));
      const tile = await updateTile(deps.pool, request.targetTile!.id, request.body);
      if (tile === undefined) throw notFound('Tile');
      return reply.send({ data: presentTile(tile) });
    });

    api.delete<WithId>('/api/v1/tiles/:id', { preValidation: loadTile }, async (request, reply) => {
      if (!(await deleteTile(deps.pool, request.targetTile!.id))) throw notFound('Tile');
      return reply.code(204).send();
    });
  });
}
