import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { adminGuard } from '../auth/admin-guard.ts';
import type { AuthThrottle } from '../auth/auth-throttle.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { newApiKey } from '@pulseboard/contracts';
import type { LimitDefaults } from '../auth/project-directory.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { accountExists, insertAccount, listAccounts, updateAccountCeilings, type AccountCeilings } from '../repositories/accounts.ts';
import { insertProject, listAccountProjects, softDeleteProject } from '../repositories/projects.ts';
import type { ControlFeed } from '../repositories/control-writes.ts';
import { alreadyTaken, createAccountBody, createProjectBody, createUserBody, createUserTokenBody, updateAccountCeilingsBody } from './admin-schemas.ts';
import { registerAdminUserRoutes } from './admin-user-routes.ts';
import { presentProject } from './present.ts';
import { accountSchema, projectSchema, projectWithKeySchema } from '@pulseboard/contracts';
import { ADMIN, ADMIN_BODY_ERRORS, ADMIN_ERRORS, all, body, errors, idParams, noContent } from '../openapi/route-docs.ts';

export interface AdminRouteDeps {
  adminToken: string;
  /** Where new credentials are admitted (before they are stored). */
  auth: Pick<Authenticator, 'admit' | 'forget'>;
  /** Counts wrong admin tokens per address. */
  throttle: Pick<AuthThrottle, 'adminFailure'>;
  pool: Pool;
  controlFeed: ControlFeed;
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
    admin.addHook(
      'onRequest',
      adminGuard(deps.adminToken, deps.throttle, (request) => request.clientAddress),
    );
    for (const schema of [createAccountBody, createUserBody, createUserTokenBody, createProjectBody, updateAccountCeilingsBody]) admin.addSchema(schema);

    admin.post<{ Body: { name: string; hourly_request_limit?: number } }>(
      '/api/v1/admin/accounts',
      {
        schema: {
          ...ADMIN,
          summary: 'Create an account',
          body: { $ref: createAccountBody.$id },
          response: { 201: body(accountSchema, 'The account'), ...errors('envelope', ADMIN_BODY_ERRORS) },
        },
      },
      async (request, reply) => reply.code(201).send(await insertAccount(deps.pool, request.body.name, request.body.hourly_request_limit)),
    );

    admin.get(
      '/api/v1/admin/accounts',
      { schema: { ...ADMIN, summary: 'Every account', response: { 200: all(accountSchema, 'Accounts, by id'), ...errors('envelope', ADMIN_ERRORS) } } },
      async (_request, reply) => reply.send({ data: await listAccounts(deps.pool) }),
    );

    // The most this account's user tokens may set a project's quota and limits to (docs/read-api.md, Abuse limits).
    admin.put<{ Params: { id: string }; Body: Partial<AccountCeilings> }>(
      '/api/v1/admin/accounts/:id',
      {
        config: { openapi: { params: idParams } },
        schema: {
          ...ADMIN,
          summary: "Set an account's ceilings for its projects' limits",
          body: { $ref: updateAccountCeilingsBody.$id },
          response: { 200: body(accountSchema, 'The account with its ceilings'), ...errors('envelope', ADMIN_BODY_ERRORS) },
        },
      },
      async (request, reply) => {
        const account = await updateAccountCeilings(deps.pool, parseNumericId(request.params.id) ?? -1, request.body);
        if (account === undefined) throw notFound('Account');
        return reply.send(account);
      },
    );

    admin.post<{
      Params: { id: string };
      Body: { project_key: string; name: string; monthly_quota?: number; burst_limit?: number; hourly_request_limit?: number; retention_days?: number };
    }>(
      '/api/v1/admin/accounts/:id/projects',
      {
        config: { openapi: { params: idParams } },
        schema: {
          ...ADMIN,
          summary: 'Create a project in an account; its API key is shown once',
          body: { $ref: createProjectBody.$id },
          response: { 201: body(projectWithKeySchema, 'The project with its API key'), ...errors('envelope', ADMIN_BODY_ERRORS) },
        },
      },
      async (request, reply) => {
        const { apiKey, hash, prefix } = newApiKey();
        await deps.auth.admit(hash);
        const project = await insertProject(
          deps.pool,
          deps.controlFeed,
          parseNumericId(request.params.id) ?? -1,
          { ...request.body, monthly_quota: request.body.monthly_quota ?? deps.defaultMonthlyQuota },
          { hash, prefix },
        );
        if (project === 'no_account') throw notFound('Account');
        if (project === 'taken') throw alreadyTaken('project_key');
        return reply.code(201).send({ ...presentProject(project, deps.limitDefaults), api_key: apiKey });
      },
    );

    admin.get<{ Params: { id: string } }>(
      '/api/v1/admin/accounts/:id/projects',
      {
        config: { openapi: { params: idParams } },
        schema: { ...ADMIN, summary: "An account's projects", response: { 200: all(projectSchema, 'Projects'), ...errors('envelope', ADMIN_ERRORS) } },
      },
      async (request, reply) => {
        const accountId = parseNumericId(request.params.id) ?? -1;
        const [exists, projects] = await Promise.all([accountExists(deps.pool, accountId), listAccountProjects(deps.pool, accountId)]);
        if (!exists) throw notFound('Account');
        return reply.send({ data: projects.map((p) => presentProject(p, deps.limitDefaults)) });
      },
    );

    registerAdminUserRoutes(admin, deps.pool, deps.auth);

    // Soft delete: the key then answers 404 project_not_found, and the key is gone from every gateway at once.
    const keyParams = { type: 'object', required: ['key'], properties: { key: { type: 'string', description: 'The project key' } } };
    admin.delete<{ Params: { key: string } }>(
      '/api/v1/admin/projects/:key',
      {
        config: { openapi: { params: keyParams } },
        schema: { ...ADMIN, summary: 'Delete a project (its key stops working at once)', response: { ...noContent, ...errors('envelope', ADMIN_ERRORS) } },
      },
      async (request, reply) => {
        if (!(await softDeleteProject(deps.pool, deps.controlFeed, request.params.key))) throw notFound('Project');
        return reply.code(204).send();
      },
    );
  });
}
