import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { newApiKey } from '@pulseboard/contracts';
import type { LimitDefaults } from '../auth/project-directory.ts';
import { accountOf, mayNameProject, principalHook, userTokenRequired } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { findLiveProject, listLiveProjects, replaceApiKey, updateProject, type ProjectRecord, type RevisionPublisher } from '../repositories/projects.ts';
import { presentProject } from './present.ts';
import { LIMIT_FIELDS, regenerateKeyBody, updateProjectBody, type RegenerateKeyBody, type UpdateProjectBody } from './project-schemas.ts';

export interface ProjectRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  publishRevision: RevisionPublisher;
  limitDefaults: Pick<LimitDefaults, 'burst' | 'projectHourly' | 'retentionDays'>;
}

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
export function registerProjectRoutes(app: FastifyInstance, deps: ProjectRouteDeps): void {
  app.register(async (api) => {
    for (const schema of [updateProjectBody, regenerateKeyBody]) api.addSchema(schema);
    api.addHook('onRequest', principalHook(deps.auth));
    const present = (row: ProjectRecord) => presentProject(row, deps.limitDefaults);

    // Runs before body validation: a foreign or missing project is 404 whatever the body says.
    const loadProject = async (request: FastifyRequest<WithId>) => {
      const principal = request.principal!;
      const project = mayNameProject(principal, request.params.id) ? await findLiveProject(deps.pool, accountOf(principal), request.params.id) : undefined;
      if (project === undefined) throw notFound('Project');
      request.targetProject = project;
    };

    api.get('/api/v1/projects', async (request, reply) => {
      const paging = parsePage(request.query as Record<string, unknown>);
      if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
      const principal = request.principal!;
      const scope = principal.kind === 'project' ? { projectKey: principal.project.projectKey } : { accountId: principal.accountId };
      const { rows, total } = await listLiveProjects(deps.pool, scope, paging.page);
      return reply.send({ data: rows.map(present), meta: listMeta(paging.page, total) });
    });

    api.get<WithId>('/api/v1/projects/:id', { preValidation: loadProject }, async (request, reply) => reply.send({ data: present(request.targetProject!) }));

    api.put<WithId & { Body: UpdateProjectBody }>(
      '/api/v1/projects/:id',
      { preValidation: loadProject, schema: { body: { $ref: updateProjectBody.$id } } },
      async (request, reply) => {
        const body = request.body;
        if (Object.keys(body).length === 0) {
          throw new PulseboardError('validation_error', { details: { base: [`must change at least one of ${['name', 'settings', ...LIMIT_FIELDS].join(', ')}`] } });
        }
        if (request.principal!.kind === 'project' && LIMIT_FIELDS.some((f) => body[f] !== undefined)) throw userTokenRequired('Changing limits or the monthly quota');
        const updated = await updateProject(deps.pool, deps.publishRevision, request.params.id, body);
        if (updated === undefined) throw notFound('Project');
        return reply.send({ data: present(updated) });
      },
    );

    api.post<WithId & { Body: RegenerateKeyBody }>(
      '/api/v1/projects/:id/regenerate_key',
      { preValidation: loadProject, schema: { body: { $ref: regenerateKeyBody.$id } } },
      async (request, reply) => {
        const principal = request.principal!;
        if (principal.kind !== 'user') throw userTokenRequired('Regenerating the API key');
        if (request.body.confirm !== true) {
          throw new PulseboardError('validation_error', { details: { confirm: ['must be true: regenerating makes the current key stop working at once'] } });
        }
        const { apiKey, hash, prefix } = newApiKey();
        const project = await replaceApiKey(deps.pool, deps.publishRevision, request.params.id, { hash, prefix });
        if (project === undefined) throw notFound('Project');
        request.log.info({ event: 'api_key_regenerated', req_id: request.id, project_key: request.params.id, user_id: principal.userId });
        // The key is shown here once; only its hash is stored.
        return reply.send({ data: { ...present(project), api_key: apiKey } });
      },
    );
  });
}
