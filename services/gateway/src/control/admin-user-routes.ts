import { userSchema, userTokenSchema, userTokenWithSecretSchema, userWithTokenSchema } from '@pulseboard/contracts';
import { ADMIN, ADMIN_BODY_ERRORS, ADMIN_ERRORS, all, body, errors, idParams, noContent } from '../openapi/route-docs.ts';
import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { Authenticator } from '../auth/authenticator.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { accountExists } from '../repositories/accounts.ts';
import { deleteUser, insertUser, insertUserToken, listAccountUsers, listUserTokens, replaceUserToken, revokeUserToken } from '../repositories/users.ts';
import { MAX_TOKENS_PER_USER, newUserToken, parseExpiry, presentUserToken, tooManyTokens } from './user-tokens.ts';
import { alreadyTaken, createUserBody, createUserTokenBody } from './admin-schemas.ts';

const tokenParams = {
  type: 'object',
  required: ['id', 'token_id'],
  properties: {
    id: { type: 'integer', minimum: 1, description: "The user's id" },
    token_id: { type: 'integer', minimum: 1, description: "The token's id (from the list)" },
  },
} as const;

/**
 * Users, inside the admin guard: the fixed create call (CONTRACT.md), list an
 * account's users, replace a user's tokens by a new one, revoke a user; and a
 * user's tokens one by one: issue (with an optional label and expiry), list
 * (never the secret), revoke. Tokens are looked up on every request, so a
 * revoked token is refused on the very next one by every gateway; broadcast
 * closes its sockets with 4003 at its next revalidation.
 */
export function registerAdminUserRoutes(admin: FastifyInstance, pool: Pool, auth: Pick<Authenticator, 'admit' | 'forget'>): void {
  admin.post<{ Params: { id: string }; Body: { email: string } }>(
    '/api/v1/admin/accounts/:id/users',
    {
      config: { openapi: { params: idParams } },
      schema: {
        ...ADMIN,
        summary: 'Create a user; its token is shown once',
        body: { $ref: createUserBody.$id },
        response: { 201: body(userWithTokenSchema, 'The user with its token'), ...errors('envelope', ADMIN_BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const token = newUserToken('default');
      await auth.admit(token.stored.hash, token.stored.expiresAt);
      const user = await insertUser(pool, parseNumericId(request.params.id) ?? -1, request.body.email, token.stored);
      if (user === 'no_account') throw notFound('Account');
      if (user === 'taken') throw alreadyTaken('email');
      return reply.code(201).send({ ...user, token: token.secret });
    },
  );

  admin.get<{ Params: { id: string } }>(
    '/api/v1/admin/accounts/:id/users',
    {
      config: { openapi: { params: idParams } },
      schema: { ...ADMIN, summary: "An account's users", response: { 200: all(userSchema, 'Users'), ...errors('envelope', ADMIN_ERRORS) } },
    },
    async (request, reply) => {
      const accountId = parseNumericId(request.params.id) ?? -1;
      const [exists, users] = await Promise.all([accountExists(pool, accountId), listAccountUsers(pool, accountId)]);
      if (!exists) throw notFound('Account');
      return reply.send({ data: users });
    },
  );

  admin.post<{ Params: { id: string } }>(
    '/api/v1/admin/users/:id/token',
    {
      config: { openapi: { params: idParams } },
      schema: {
        ...ADMIN,
        summary: "Replace all of a user's tokens by a new one (the old ones stop working at once)",
        response: { 201: body(userWithTokenSchema, 'The user with the new token'), ...errors('envelope', ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const token = newUserToken('default');
      await auth.admit(token.stored.hash, token.stored.expiresAt);
      const user = await replaceUserToken(pool, parseNumericId(request.params.id) ?? -1, token.stored);
      if (user === undefined) throw notFound('User');
      request.log.info({ event: 'user_token_issued', req_id: request.id, user_id: user.id });
      return reply.code(201).send({ ...user, token: token.secret });
    },
  );

  admin.post<{ Params: { id: string }; Body: { label?: string; expires_at?: string } }>(
    '/api/v1/admin/users/:id/tokens',
    {
      config: { openapi: { params: idParams } },
      schema: {
        ...ADMIN,
        summary: 'Issue one more token for a user, with an optional label and expiry; shown once',
        body: { $ref: createUserTokenBody.$id },
        response: { 201: body(userTokenWithSecretSchema, 'The token with its secret'), ...errors('envelope', [...ADMIN_BODY_ERRORS, 409]) },
      },
    },
    async (request, reply) => {
      const token = newUserToken(request.body.label ?? '', parseExpiry(request.body.expires_at));
      const userId = parseNumericId(request.params.id) ?? -1;
      await auth.admit(token.stored.hash, token.stored.expiresAt);
      const created = await insertUserToken(pool, userId, token.stored, MAX_TOKENS_PER_USER);
      if (created === 'no_user') throw notFound('User');
      if (created === 'limit') throw tooManyTokens();
      // No parent token here: the admin may issue any expiry.
      if (created === 'no_parent' || 'outlives' in created) throw new Error('unreachable: no parent token given');
      request.log.info({ event: 'user_token_issued', req_id: request.id, user_id: userId, token_id: Number(created.id), expires_at: created.expires_at });
      return reply.code(201).send({ ...presentUserToken(created), token: token.secret });
    },
  );

  admin.get<{ Params: { id: string } }>(
    '/api/v1/admin/users/:id/tokens',
    {
      config: { openapi: { params: idParams } },
      schema: {
        ...ADMIN,
        summary: "A user's tokens (label, prefix, dates; never the secret)",
        response: { 200: all(userTokenSchema, 'Tokens, oldest first'), ...errors('envelope', ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const tokens = await listUserTokens(pool, parseNumericId(request.params.id) ?? -1);
      if (tokens === undefined) throw notFound('User');
      return reply.send({ data: tokens.map(presentUserToken) });
    },
  );

  admin.delete<{ Params: { id: string; token_id: string } }>(
    '/api/v1/admin/users/:id/tokens/:token_id',
    {
      config: { openapi: { params: tokenParams } },
      schema: {
        ...ADMIN,
        summary: 'Revoke one token of a user (refused from the very next request; open WebSockets close with 4003)',
        response: { ...noContent, ...errors('envelope', ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const userId = parseNumericId(request.params.id) ?? -1;
      const tokenId = parseNumericId(request.params.token_id) ?? -1;
      const revoked = await revokeUserToken(pool, userId, tokenId);
      if (revoked === undefined) throw notFound('Token');
      auth.forget(revoked);
      request.log.info({ event: 'user_token_revoked', req_id: request.id, user_id: userId, token_id: tokenId });
      return reply.code(204).send();
    },
  );

  admin.delete<{ Params: { id: string } }>(
    '/api/v1/admin/users/:id',
    {
      config: { openapi: { params: idParams } },
      schema: { ...ADMIN, summary: 'Delete a user (its tokens stop working at once)', response: { ...noContent, ...errors('envelope', ADMIN_ERRORS) } },
    },
    async (request, reply) => {
      if (!(await deleteUser(pool, parseNumericId(request.params.id) ?? -1))) throw notFound('User');
      return reply.code(204).send();
    },
  );
}
