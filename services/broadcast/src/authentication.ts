import type { FastifyReply, FastifyRequest } from 'fastify';
import { PulseboardError, bearerToken } from '@pulseboard/contracts';
import type { Principal } from './repository.ts';

/** Authenticates a credential (a project key or a user token): `authenticateReader` of @pulseboard/control-plane. */
export type Authenticate = (token: string) => Promise<Principal | undefined>;

/**
 * The WebSocket upgrade's hook: a credential in the Authorization header is
 * checked before the upgrade, and a bad one is 401 `invalid_api_key` with no
 * socket. Without one, the client authenticates with its first message
 * (connection.ts). The principal found is kept on the request.
 */
export function upgradeAuthentication(authenticate: Authenticate) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return;
    const principal = await authenticate(token);
    if (principal === undefined) {
      const refused = new PulseboardError('invalid_api_key');
      return reply.code(refused.status).send({ error: { code: refused.code, message: refused.message } });
    }
    (request as { principal?: Principal }).principal = principal;
  };
}

/** The principal the upgrade's header authenticated, if any. */
export function upgradePrincipal(request: FastifyRequest): Principal | undefined {
  return (request as { principal?: Principal }).principal;
}
