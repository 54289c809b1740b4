import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { adminGuard } from '../auth/admin-guard.ts';
import { newApiKey } from '@pulseboard/contracts';
import type { LimitDefaults } from '../auth/project-directory.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { accountExists, insertAccount, listAccounts } from '../repositories/accounts.ts';
import { insertProject, listAccountProjects, softDeleteProject, type RevisionPublisher } from '../repositories/projects.ts';
import { alreadyTaken, createAccountBody, createProjectBody, createUserBody } from './admin-schemas.ts';
import { registerAdminUserRoutes } from './admin-user-routes.ts';
import { presentProject } from './present.ts';

export interface AdminRouteDeps {
  adminToken: string;
  pool: Pool;
  publishRevision: RevisionPublisher;
  /** What a new project's monthly quota is when the call does not say. */
  defaultMonthlyQuota: number;
  limitDefaults: Pick<LimitDefaults, 'burst' | 'projectHourly' | 'retentionDays'>;
}

/**
 * The operator's API (ADMIN_TOKEN). The three creation calls are fixed by
 * CONTRACT.md so outside tools can rely on them; the rest is what an operator
 * needs to run an installation. Secrets are returned once and stored hashed.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', adminGuard(deps.adminToken));
    for (const schema of [createAccountBody, createUserBody, createProjectBody]) admin.addSchema(schema);

    admin.post<{ Body: { name: string; hourly_request_limit?: number } }>('/api/v1/admin/accounts', { schema: { body: { $ref: createAccountBody.$id } } }, async (request, reply) =>
      reply.code(201).send(await insertAccount(deps.pool, request.body.name, request.body.hourly_request_limit)),
    );

    admin.get('/api/v1/admin/accounts', async (_request, reply) => reply.send({ data: await listAccounts(deps.pool) }));

    admin.post<{ Params: { id: string }; Body: { project_key: string; name: string; monthly_quota?: number; burst_limit?: number; hourly_request_limit?: number; retention_days?: number } }>(
      '/api/v1/admin/accounts/:id/projects',
      { schema: { body: { $ref: createProjectBody.$id } } },
      async (request, reply) => {
        const { apiKey, hash, prefix } = newApiKey();
        const project = await insertProject(deps.pool, parseNumericId(request.params.id) ?? -1, { ...request.body, monthly_quota: request.body.monthly_quota ?? deps.defaultMonthlyQuota }, { hash, prefix });
        if (project === 'no_account') throw notFound('Account');
        if (project === 'taken') throw alreadyTaken('project_key');
        return reply.code(201).send({ ...presentProject(project, deps.limitDefaults), api_key: apiKey });
      },
    );

    admin.get<{ Params: { id: string } }>('/api/v1/admin/accounts/:id/projects', async (request, reply) => {
      const accountId = parseNumericId(request.params.id) ?? -1;
      const [exists, projects] = await Promise.all([accountExists(deps.pool, accountId), listAccountProjects(deps.pool, accountId)]);
      if (!exists) throw notFound('Account');
      return reply.send({ data: projects.map((p) => presentProject(p, deps.limitDefaults)) });
    });

    registerAdminUserRoutes(admin, deps.pool);

    // Soft delete: the key then answers 404 project_not_found, and the key is gone from every gateway at once.
    admin.delete<{ Params: { key: string } }>('/api/v1/admin/projects/:key', async (request, reply) => {
      if (!(await softDeleteProject(deps.pool, deps.publishRevision, request.params.key))) throw notFound('Project');
      return reply.code(204).send();
    });
  });
}
