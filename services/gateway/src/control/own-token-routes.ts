import { bearerToken, hashSecret, PulseboardError, userTokenSchema, userTokenWithSecretSchema } from '@pulseboard/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook, userTokenRequired } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { AUTHENTICATED, BODY_ERRORS, all, body, errors, idParams, noContent, SECURITY } from '../openapi/route-docs.ts';
import { insertUserToken, listUserTokens, revokeUserToken } from '../repositories/users.ts';
import { createUserTokenBody } from './admin-schemas.ts';
import { MAX_TOKENS_PER_USER, newUserToken, parseExpiry, presentUserToken, tooManyTokens } from './user-tokens.ts';

const doc = (summary: string, response: object) => ({ tags: ['tokens'], summary, security: SECURITY.userToken, response });
// A project key is 403 user_token_required; a token of another user is 404.
const READ_ERRORS = [403, 404, ...AUTHENTICATED];

/** The calling user; a project key is 403 `user_token_required`. */
function userOf(request: FastifyRequest): number {
  const principal = request.principal!;
  if (principal.kind !== 'user') throw userTokenRequired('Managing tokens');
  return principal.userId;
}

/**
 * Self-service for the holder of a user token: its user's tokens, as GitHub's
 * personal access tokens are. Issue one more (label, optional expiry; the
 * secret shown once), list them (never a secret), revoke one, the calling
 * token included. The admin API (`/api/v1/admin/users/:id/tokens`) does the
 * same for any user. Tokens are looked up on every request, so a revoked one
 * is refused on the very next request by every gateway, and broadcast closes
 * its sockets with 4003 at its next revalidation.
 */
export function registerOwnTokenRoutes(app: FastifyInstance, deps: { auth: Pick<Authenticator, 'principal' | 'admit' | 'forget'>; pool: Pool }): void {
  const { pool } = deps;
  app.register(async (api) => {
    api.addSchema(createUserTokenBody);
    api.addHook('onRequest', principalHook(deps.auth));
    api.addHook('onRequest', async (request) => {
      userOf(request);
    });

    api.get(
      '/api/v1/tokens',
      {
        schema: doc("The calling user's tokens (label, prefix, dates; never the secret)", {
          200: all(userTokenSchema, 'Tokens, oldest first'),
          ...errors('envelope', READ_ERRORS),
        }),
      },
      async (request, reply) => {
        const tokens = await listUserTokens(pool, userOf(request));
        if (tokens === undefined) throw notFound('User');
        return reply.send({ data: tokens.map(presentUserToken) });
      },
    );

    api.post<{ Body: { label?: string; expires_at?: string } }>(
      '/api/v1/tokens',
      {
        schema: {
          ...doc(
            `Issue one more token for the calling user, with an optional label and expiry; the secret is shown once (at most ${MAX_TOKENS_PER_USER} per user)`,
            { 201: body(userTokenWithSecretSchema, 'The token with its secret'), ...errors('envelope', [...BODY_ERRORS, ...READ_ERRORS]) },
          ),
          description:
            "A token cannot make one that outlives it. When the calling token has an expiry, the new token expires no later: `expires_at` omitted means the calling token's own expiry, and a later `expires_at` is 400 `validation_error`. A token without an expiry may issue tokens with any expiry or none. The admin API (`POST /api/v1/admin/users/{id}/tokens`) is not bound by this.",
          body: { $ref: createUserTokenBody.$id },
        },
      },
      async (request, reply) => {
        const token = newUserToken(request.body.label ?? '', parseExpiry(request.body.expires_at));
        const userId = userOf(request);
        // The calling token is a user token (userOf): its hash finds its expiry, under the cap lock.
        const parentHash = hashSecret(bearerToken(request.headers.authorization) ?? '');
        // Into the valid-credential set with the expiry it gets (the parent's when clamped), before its row commits.
        const created = await insertUserToken(pool, userId, token.stored, MAX_TOKENS_PER_USER, {
          parentHash,
          beforeCommit: (expiresAt) => deps.auth.admit(token.stored.hash, expiresAt),
        });
        if (created === 'no_user') throw notFound('User');
        if (created === 'no_parent') throw new PulseboardError('invalid_api_key');
        if (created === 'limit') throw tooManyTokens();
        if ('outlives' in created)
          throw new PulseboardError('validation_error', {
            details: { expires_at: [`must not be later than the expiry of the token making the request (${created.outlives.toISOString()})`] },
          });
        request.log.info({
          event: 'user_token_issued',
          req_id: request.id,
          user_id: userId,
          token_id: Number(created.id),
          expires_at: created.expires_at,
          by: 'self',
        });
        return reply.code(201).send({ ...presentUserToken(created), token: token.secret });
      },
    );

    api.delete<{ Params: { id: string } }>(
      '/api/v1/tokens/:id',
      {
        config: { openapi: { params: idParams } },
        schema: doc("Revoke one of the calling user's tokens (refused from the very next request; open WebSockets close with 4003)", {
          ...noContent,
          ...errors('envelope', READ_ERRORS),
        }),
      },
      async (request, reply) => {
        const userId = userOf(request);
        const tokenId = parseNumericId(request.params.id) ?? -1;
        const revoked = await revokeUserToken(pool, userId, tokenId);
        if (revoked === undefined) throw notFound('Token');
        deps.auth.forget(revoked);
        request.log.info({ event: 'user_token_revoked', req_id: request.id, user_id: userId, token_id: tokenId, by: 'self' });
        return reply.code(204).send();
      },
    );
  });
}
