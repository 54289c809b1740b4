import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { generateSecret, hashSecret, USER_TOKEN_PREFIX } from '../auth/credentials.ts';
import { errors, sendError } from '../replies.ts';

export function parseAdminId(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Users beyond the fixed create call: list an account's users, issue a new
 * token for a user (the old one stops working at once: tokens are looked up on
 * every request), revoke a user. Registered inside the admin guard.
 */
export function registerAdminUserRoutes(admin: FastifyInstance, deps: GatewayDeps): void {
  admin.get<{ Params: { id: string } }>('/api/v1/admin/accounts/:id/users', async (request, reply) => {
    const accountId = parseAdminId(request.params.id) ?? -1;
    const [account, users] = await Promise.all([
      deps.pool.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]),
      deps.pool.query('SELECT id, account_id, email, created_at FROM users WHERE account_id = $1 ORDER BY id', [accountId]),
    ]);
    if (account.rowCount === 0) return sendError(reply, 'envelope', errors.notFound('Account'));
    return reply.send({ data: users.rows });
  });

  admin.post<{ Params: { id: string } }>('/api/v1/admin/users/:id/token', async (request, reply) => {
    const token = generateSecret(USER_TOKEN_PREFIX);
    const { rows } = await deps.pool.query<{ id: number; account_id: number; email: string }>(
      'UPDATE users SET token_hash = $2 WHERE id = $1 RETURNING id, account_id, email',
      [parseAdminId(request.params.id) ?? -1, hashSecret(token)],
    );
    if (rows[0] === undefined) return sendError(reply, 'envelope', errors.notFound('User'));
    request.log.info({ event: 'user_token_issued', req_id: request.id, user_id: rows[0].id });
    return reply.code(201).send({ ...rows[0], token });
  });

  admin.delete<{ Params: { id: string } }>('/api/v1/admin/users/:id', async (request, reply) => {
    const { rowCount } = await deps.pool.query('DELETE FROM users WHERE id = $1', [parseAdminId(request.params.id) ?? -1]);
    return rowCount === 0 ? sendError(reply, 'envelope', errors.notFound('User')) : reply.code(204).send();
  });
}
