import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ValidationDetails } from '@pulseboard/contracts';
import type { GatewayDeps } from '../deps.ts';
import { authenticate, readableProjects } from '../auth/principal.ts';
import { errors, sendError } from '../replies.ts';
import { listMeta, parsePage } from '../routes/pagination.ts';
import { presentTile, type TileRecord } from './present.ts';
import { createTileBody, MAX_RULE_BYTES, tileRuleShape, updateTileBody, type CreateTileBody, type UpdateTileBody } from './tile-schemas.ts';
import { deleteTile, findTile, insertTile, listTiles, updateTile } from './tiles-repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    targetTile?: TileRecord;
  }
}

type WithId = { Params: { id: string } };

function parseTileId(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

function ruleTooLarge(rule: unknown): ValidationDetails | null {
  return rule !== undefined && Buffer.byteLength(JSON.stringify(rule)) > MAX_RULE_BYTES ? { rule: [`is too large (maximum is ${MAX_RULE_BYTES} bytes)`] } : null;
}

/**
 * Tiles (spec 4.5 reads; CONTRACT.md adds create, update, delete) with a user
 * token or the project's key. GET /tiles/:id/state belongs to the rule engine,
 * which owns tile state; it is not answered here.
 */
export function registerTileRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (api) => {
    for (const schema of [tileRuleShape, createTileBody, updateTileBody]) api.addSchema(schema);
    api.addHook('onRequest', authenticate(deps));

    // Before body validation: a foreign or missing tile is 404 whatever the body says.
    const loadTile = async (request: FastifyRequest<WithId>, reply: FastifyReply) => {
      const id = parseTileId(request.params.id);
      const projects = await readableProjects(request.principal!, deps.pool);
      const tile = id === undefined ? undefined : await findTile(deps.pool, projects, id);
      if (tile === undefined) return sendError(reply, 'envelope', errors.notFound('Tile'));
      request.targetTile = tile;
    };

    api.get('/api/v1/tiles', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const paging = parsePage(query);
      if (!paging.ok) return sendError(reply, 'envelope', errors.validation(paging.details, 'Invalid query parameters'));
      const requested = typeof query.project_key === 'string' ? query.project_key : undefined;
      const projects = await readableProjects(request.principal!, deps.pool, requested);
      if (requested !== undefined && projects.length === 0) return sendError(reply, 'envelope', errors.notFound('Project'));
      const { rows, total } = await listTiles(deps.pool, projects, paging.page);
      return reply.send({ data: rows.map(presentTile), meta: listMeta(paging.page, total) });
    });

    api.get<WithId>('/api/v1/tiles/:id', { preValidation: loadTile }, async (request, reply) => reply.send({ data: presentTile(request.targetTile!) }));

    api.post<{ Body: CreateTileBody }>('/api/v1/tiles', { schema: { body: { $ref: createTileBody.$id } } }, async (request, reply) => {
      const principal = request.principal!;
      const projectKey = request.body.project_key ?? (principal.kind === 'project' ? principal.project.projectKey : undefined);
      if (projectKey === undefined) return sendError(reply, 'envelope', errors.validation({ project_key: ["can't be blank"] }));
      const tooLarge = ruleTooLarge(request.body.rule);
      if (tooLarge !== null) return sendError(reply, 'envelope', errors.validation(tooLarge));
      const [visible] = await readableProjects(principal, deps.pool, projectKey);
      if (visible === undefined) return sendError(reply, 'envelope', errors.notFound('Project'));
      const tile = await insertTile(deps.pool, visible, request.body);
      return reply.code(201).send({ data: presentTile(tile) });
    });

    api.put<WithId & { Body: UpdateTileBody }>('/api/v1/tiles/:id', { preValidation: loadTile, schema: { body: { $ref: updateTileBody.$id } } }, async (request, reply) => {
      if (Object.keys(request.body).length === 0) return sendError(reply, 'envelope', errors.validation({ base: ['must change at least one of name, kind, rule, settings, position'] }));
      const tooLarge = ruleTooLarge(request.body.rule);
      if (tooLarge !== null) return sendError(reply, 'envelope', errors.validation(tooLarge));
      const tile = await updateTile(deps.pool, request.targetTile!.id, request.body);
      return tile === undefined ? sendError(reply, 'envelope', errors.notFound('Tile')) : reply.send({ data: presentTile(tile) });
    });

    api.delete<WithId>('/api/v1/tiles/:id', { preValidation: loadTile }, async (request, reply) => {
      const deleted = await deleteTile(deps.pool, request.targetTile!.id);
      return deleted ? reply.code(204).send() : sendError(reply, 'envelope', errors.notFound('Tile'));
    });
  });
}
