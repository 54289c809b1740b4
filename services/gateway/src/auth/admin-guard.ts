import type { FastifyRequest } from 'fastify';
import { PulseboardError } from '@pulseboard/contracts';
import { bearerToken, credentialKind, hashSecret, sameHash } from '@pulseboard/contracts';
import type { AuthThrottle } from './auth-throttle.ts';

/**
 * onRequest guard for /api/v1/admin/*: only ADMIN_TOKEN, compared (as hashes)
 * in constant time. The right token always works; wrong ones are counted per
 * client address and answered 429 past the failed-authentication limit.
 */
export function adminGuard(adminToken: string, throttle: Pick<AuthThrottle, 'adminFailure'>, clientOf: (request: FastifyRequest) => string) {
  const expected = hashSecret(adminToken);
  return async (request: FastifyRequest): Promise<void> => {
    if (adminToken === '') throw new PulseboardError('not_found', { message: 'The admin API is disabled: set ADMIN_TOKEN' });
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) throw new PulseboardError('authentication_required');
    if (sameHash(hashSecret(token), expected)) return;
    if (credentialKind(token) !== 'unknown') throw new PulseboardError('forbidden', { message: 'The admin API takes the admin token' });
    throw await throttle.adminFailure(clientOf(request), new PulseboardError('invalid_admin_token'));
  };
}
