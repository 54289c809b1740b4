import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { authenticate, userTokenRequired } from '../auth/principal.ts';
import { errors, sendError } from '../replies.ts';
import { listMeta, parsePage } from '../routes/pagination.ts';
import { presentProject } from './present.ts';
import { LIMIT_FIELDS, regenerateKeyBody, updateProjectBody, type RegenerateKeyBody, type UpdateProjectBody } from './project-schemas.ts';
import { findVisibleProject, listVisibleProjects, regenerateApiKey, updateProject, type ProjectRecord } from './projects-repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    targetProject?: ProjectRecord;
  }
}

type WithId = { Params: { id: string } };

/**
 * Projects (spec 4.5; CONTRACT.md): `:id` is the project key. A project key
 * sees only its project; a user token its account's. Anything else is 404, so
 * a caller cannot tell a foreign project from a missing one.
 */
export function registerProjectRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (api) => {
    for (const schema of [updateProjectBody, regenerateKeyBody]) api.addSchema(schema);
    api.addHook('onRequest', authenticate(deps));

    // Runs before body validation: a foreign or missing project is 404 whatever the body says.
    const loadProject = async (request: FastifyRequest<WithId>, reply: FastifyReply) => {
      const project = await findVisibleProject(deps.pool, request.principal!, request.params.id);
      if (project === undefined) return sendError(reply, 'envelope', errors.notFound('Project'));
      request.targetProject = project;
    };

    api.get('/api/v1/projects', async (request, reply) => {
      const paging = parsePage(request.query as Record<string, unknown>);
      if (!paging.ok) return sendError(reply, 'envelope', errors.validation(paging.details, 'Invalid query parameters'));
      const { rows, total } = await listVisibleProjects(deps.pool, request.principal!, paging.page);
      return reply.send({ data: rows.map((r) => presentProject(r, deps)), meta: listMeta(paging.page, total) });
    });

    api.get<WithId>('/api/v1/projects/:id', { preValidation: loadProject }, async (request, reply) =>
      reply.send({ data: presentProject(request.targetProject!, deps) }),
    );

    api.put<WithId & { Body: UpdateProjectBody }>(
      '/api/v1/projects/:id',
      { preValidation: loadProject, schema: { body: { $ref: updateProjectBody.$id } } },
      async (request, reply) => {
        const body = request.body;
        if (Object.keys(body).length === 0) {
          return sendError(reply, 'envelope', errors.validation({ base: [`must change at least one of ${['name', 'settings', ...LIMIT_FIELDS].join(', ')}`] }));
        }
        if (request.principal!.kind === 'project' && LIMIT_FIELDS.some((f) => body[f] !== undefined)) {
          return sendError(reply, 'envelope', userTokenRequired('Changing limits or the monthly quota'));
        }
        const updated = await updateProject(deps.pool, deps.redis, request.params.id, body);
        if (updated === undefined) return sendError(reply, 'envelope', errors.notFound('Project'));
        return reply.send({ data: presentProject(updated, deps) });
      },
    );

    api.post<WithId & { Body: RegenerateKeyBody }>(
      '/api/v1/projects/:id/regenerate_key',
      { preValidation: loadProject, schema: { body: { $ref: regenerateKeyBody.$id } } },
      async (request, reply) => {
        const principal = request.principal!;
        if (principal.kind !== 'user') return sendError(reply, 'envelope', userTokenRequired('Regenerating the API key'));
        if (request.body.confirm !== true) {
          return sendError(reply, 'envelope', errors.validation({ confirm: ['must be true: regenerating makes the current key stop working at once'] }));
        }
        const regenerated = await regenerateApiKey(deps.pool, deps.redis, request.params.id);
        if (regenerated === undefined) return sendError(reply, 'envelope', errors.notFound('Project'));
        request.log.info({ event: 'api_key_regenerated', req_id: request.id, project_key: request.params.id, user_id: principal.userId });
        // The key is shown here once; only its hash is stored.
        return reply.send({ data: { ...presentProject(regenerated.project, deps), api_key: regenerated.apiKey } });
      },
    );
  });
}
