import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/credentials.ts';
import { apiError, errors, sendError } from '../replies.ts';

/** onRequest guard for /api/v1/admin/*: only ADMIN_TOKEN, compared in constant time. */
export function adminGuard(adminToken: string) {
  const expected = createHash('sha256').update(adminToken).digest();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (adminToken === '') return sendError(reply, 'envelope', apiError(404, 'not_found', 'The admin API is disabled: set ADMIN_TOKEN'));
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return sendError(reply, 'envelope', errors.authenticationRequired());
    const given = createHash('sha256').update(token).digest();
    if (timingSafeEqual(given, expected)) return;
    if (token.startsWith('evk_') || token.startsWith('evu_')) return sendError(reply, 'envelope', errors.forbidden('The admin API takes the admin token'));
    return sendError(reply, 'envelope', apiError(401, 'invalid_admin_token', 'The admin token is invalid'));
  };
}
