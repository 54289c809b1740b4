import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { generateSecret, hashSecret, USER_TOKEN_PREFIX } from '../auth/credentials.ts';
import { apiError, errors, sendError } from '../replies.ts';
import { adminGuard } from './admin-auth.ts';
import { createAccountBody, createProjectBody, createUserBody } from './admin-schemas.ts';
import { newApiKey, PROJECT_COLUMNS, changeProject, type ProjectRecord } from './projects-repo.ts';
import { presentProject } from './present.ts';
import { parseAdminId, registerAdminUserRoutes } from './admin-user-routes.ts';

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === UNIQUE_VIOLATION;

const parseId = parseAdminId;

/**
 * The operator's API (ADMIN_TOKEN). The three creation calls are fixed by
 * CONTRACT.md so outside tools can rely on them; the rest is what an operator
 * needs to run an installation. Secrets are returned once and stored hashed.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', adminGuard(deps.env.ADMIN_TOKEN));
    for (const schema of [createAccountBody, createUserBody, createProjectBody]) admin.addSchema(schema);

    admin.post<{ Body: { name: string; hourly_request_limit?: number } }>('/api/v1/admin/accounts', { schema: { body: { $ref: createAccountBody.$id } } }, async (request, reply) => {
      const { rows } = await deps.pool.query<{ id: number; name: string; hourly_request_limit: number | null }>(
        'INSERT INTO accounts (name, hourly_request_limit) VALUES ($1, $2) RETURNING id, name, hourly_request_limit',
        [request.body.name, request.body.hourly_request_limit ?? null],
      );
      return reply.code(201).send(rows[0]);
    });

    admin.get('/api/v1/admin/accounts', async (_request, reply) => {
      const { rows } = await deps.pool.query('SELECT id, name, hourly_request_limit, created_at FROM accounts ORDER BY id');
      return reply.send({ data: rows });
    });

    admin.post<{ Params: { id: string }; Body: { email: string } }>('/api/v1/admin/accounts/:id/users', { schema: { body: { $ref: createUserBody.$id } } }, async (request, reply) => {
      const accountId = parseId(request.params.id);
      const token = generateSecret(USER_TOKEN_PREFIX);
      try {
        const { rows } = await deps.pool.query<{ id: number; email: string }>(
          'INSERT INTO users (account_id, email, token_hash) SELECT id, $2, $3 FROM accounts WHERE id = $1 RETURNING id, email',
          [accountId ?? -1, request.body.email, hashSecret(token)],
        );
        if (rows[0] === undefined) return sendError(reply, 'envelope', errors.notFound('Account'));
        return reply.code(201).send({ ...rows[0], account_id: accountId, token });
      } catch (error) {
        if (isUniqueViolation(error)) return sendError(reply, 'envelope', errors.validation({ email: ['has already been taken'] }));
        throw error;
      }
    });

    admin.post<{ Params: { id: string }; Body: { project_key: string; name: string; monthly_quota?: number; burst_limit?: number; hourly_request_limit?: number } }>(
      '/api/v1/admin/accounts/:id/projects',
      { schema: { body: { $ref: createProjectBody.$id } } },
      async (request, reply) => {
        const accountId = parseId(request.params.id);
        const { apiKey, hash, prefix } = newApiKey();
        const b = request.body;
        try {
          const { rows } = await deps.pool.query<ProjectRecord>(
            `INSERT INTO projects (project_key, account_id, name, api_key_hash, api_key_prefix, monthly_quota, burst_limit, hourly_request_limit)
             SELECT $2, id, $3, $4, $5, $6, $7, $8 FROM accounts WHERE id = $1
             RETURNING ${PROJECT_COLUMNS}`,
            [accountId ?? -1, b.project_key, b.name, hash, prefix, b.monthly_quota ?? deps.env.DEFAULT_MONTHLY_QUOTA, b.burst_limit ?? null, b.hourly_request_limit ?? null],
          );
          if (rows[0] === undefined) return sendError(reply, 'envelope', errors.notFound('Account'));
          return reply.code(201).send({ ...presentProject(rows[0], deps), api_key: apiKey });
        } catch (error) {
          if (isUniqueViolation(error)) return sendError(reply, 'envelope', errors.validation({ project_key: ['has already been taken'] }));
          throw error;
        }
      },
    );

    admin.get<{ Params: { id: string } }>('/api/v1/admin/accounts/:id/projects', async (request, reply) => {
      const accountId = parseId(request.params.id) ?? -1;
      const [account, projects] = await Promise.all([
        deps.pool.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]),
        deps.pool.query<ProjectRecord>(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE account_id = $1 AND deleted_at IS NULL ORDER BY project_key`, [accountId]),
      ]);
      if (account.rowCount === 0) return sendError(reply, 'envelope', errors.notFound('Account'));
      return reply.send({ data: projects.rows.map((r) => presentProject(r, deps)) });
    });

    registerAdminUserRoutes(admin, deps);

    // Soft delete: the key then answers 404 project_not_found, and the key is gone from every gateway at once.
    admin.delete<{ Params: { key: string } }>('/api/v1/admin/projects/:key', async (request, reply) => {
      const deleted = await changeProject(deps.pool, deps.redis, request.params.key, async (client) => {
        const { rowCount } = await client.query('UPDATE projects SET deleted_at = now() WHERE project_key = $1 AND deleted_at IS NULL', [request.params.key]);
        return rowCount === 0 ? undefined : true;
      });
      return deleted === undefined ? sendError(reply, 'envelope', errors.notFound('Project')) : reply.code(204).send();
    });
  });
}

export { apiError };
