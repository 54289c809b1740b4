import type { FastifyReply, FastifyRequest } from 'fastify';
import { PulseboardError, bearerToken } from '@pulseboard/contracts';
import type { Principal } from './repository.ts';
import { isThrottled, type Authenticate } from './auth-throttle.ts';

export type { Authenticate } from './auth-throttle.ts';

/**
 * The WebSocket upgrade's hook: a credential in the Authorization header is
 * checked before the upgrade, and a bad one is 401 `invalid_api_key` with no
 * socket (429 with Retry-After when this address or key prefix failed too
 * often and the credential is not known valid). Without one, the client
 * authenticates with its first message (connection.ts). The principal found
 * is kept on the request.
 */
export function upgradeAuthentication(authenticate: Authenticate) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return;
    const outcome = await authenticate(token, request.ip);
    if (outcome === undefined || isThrottled(outcome)) {
      const refused =
        outcome === undefined
          ? new PulseboardError('invalid_api_key')
          : new PulseboardError('rate_limit_exceeded', {
              message: `Too many failed authentications from this address or for this key prefix; retry after ${outcome.retryAfter} s`,
            });
      if (outcome !== undefined) reply.header('retry-after', String(outcome.retryAfter));
      return reply.code(refused.status).send({ error: { code: refused.code, message: refused.message } });
    }
    (request as { principal?: Principal }).principal = outcome;
  };
}

/** The principal the upgrade's header authenticated, if any. */
export function upgradePrincipal(request: FastifyRequest): Principal | undefined {
  return (request as { principal?: Principal }).principal;
}
