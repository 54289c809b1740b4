import { userSchema, userWithTokenSchema } from '@pulseboard/contracts';
import { ADMIN, ADMIN_BODY_ERRORS, ADMIN_ERRORS, all, body, errors, idParams, noContent } from '../openapi/route-docs.ts';
import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { generateSecret, hashSecret, USER_TOKEN_PREFIX } from '@pulseboard/contracts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { accountExists } from '../repositories/accounts.ts';
import { deleteUser, insertUser, listAccountUsers, replaceUserToken } from '../repositories/users.ts';
import { alreadyTaken, createUserBody } from './admin-schemas.ts';

/**
 * Users, inside the admin guard: the fixed create call (CONTRACT.md), list an
 * account's users, issue a new token for a user (the old one stops working at
 * once: tokens are looked up on every request), revoke a user.
 */

export function registerAdminUserRoutes(admin: FastifyInstance, pool: Pool): void {
  admin.post<{ Params: { id: string }; Body: { email: string } }>('/api/v1/admin/accounts/:id/users', { config: { openapi: { params: idParams } }, schema: { ...ADMIN, summary: 'Create a user; its token is shown once', body: { $ref: createUserBody.$id }, response: { 201: body(userWithTokenSchema, 'The user with its token'), ...errors('envelope', ADMIN_BODY_ERRORS) } } }, async (request, reply) => {
    const token = generateSecret(USER_TOKEN_PREFIX);
    const user = await insertUser(pool, parseNumericId(request.params.id) ?? -1, request.body.email, hashSecret(token));
    if (user === 'no_account') throw notFound('Account');
    if (user === 'taken') throw alreadyTaken('email');
    return reply.code(201).send({ ...user, token });
  });

  admin.get<{ Params: { id: string } }>('/api/v1/admin/accounts/:id/users', { config: { openapi: { params: idParams } }, schema: { ...ADMIN, summary: "An account's users", response: { 200: all(userSchema, 'Users'), ...errors('envelope', ADMIN_ERRORS) } } }, async (request, reply) => {
    const accountId = parseNumericId(request.params.id) ?? -1;
    const [exists, users] = await Promise.all([accountExists(pool, accountId), listAccountUsers(pool, accountId)]);
    if (!exists) throw notFound('Account');
    return reply.send({ data: users });
  });

  admin.post<{ Params: { id: string } }>('/api/v1/admin/users/:id/token', { config: { openapi: { params: idParams } }, schema: { ...ADMIN, summary: 'Issue a new token for a user (the old one stops working at once)', response: { 201: body(userWithTokenSchema, 'The user with the new token'), ...errors('envelope', ADMIN_ERRORS) } } }, async (request, reply) => {
    const token = generateSecret(USER_TOKEN_PREFIX);
    const user = await replaceUserToken(pool, parseNumericId(request.params.id) ?? -1, hashSecret(token));
    if (user === undefined) throw notFound('User');
    request.log.info({ event: 'user_token_issued', req_id: request.id, user_id: user.id });
    return reply.code(201).send({ ...user, token });
  });

  admin.delete<{ Params: { id: string } }>('/api/v1/admin/users/:id', { config: { openapi: { params: idParams } }, schema: { ...ADMIN, summary: 'Delete a user (its token stops working at once)', response: { ...noContent, ...errors('envelope', ADMIN_ERRORS) } } }, async (request, reply) => {
    if (!(await deleteUser(pool, parseNumericId(request.params.id) ?? -1))) throw notFound('User');
    return reply.code(204).send();
  });
}
