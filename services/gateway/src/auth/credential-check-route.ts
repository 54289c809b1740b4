import type { FastifyInstance } from 'fastify';
import { bearerToken, credentialKind, hashSecret, PulseboardError } from '@pulseboard/contracts';
import { passThroughClient } from '@pulseboard/config';
import type { CredentialSet } from './credential-set.ts';

/** Broadcast's question, when a WebSocket client's address or key prefix has failed too often. */
export const CREDENTIAL_CHECK_PATH = '/internal/v1/credential-check';

/**
 * Whether the Bearer credential may be valid, from the valid-credential set
 * alone (Redis, never Postgres): broadcast asks it for a WebSocket `auth` past
 * its failed-authentication limit, and looks up only what this calls valid.
 * Only for broadcast: the request must carry INTERNAL_PROXY_SECRET (and the
 * client's address, as the pass-through does); to anyone else this is 404.
 * Not part of the API: registered before the route table and the OpenAPI
 * document collect routes.
 */
export function registerCredentialCheckRoute(
  app: FastifyInstance,
  deps: { credentials: Pick<CredentialSet, 'has'>; proxySecretHash: Buffer | undefined },
): void {
  app.get(CREDENTIAL_CHECK_PATH, { schema: { hide: true } }, async (request) => {
    if (passThroughClient(deps.proxySecretHash, request.headers) === undefined) throw new PulseboardError('not_found');
    const token = bearerToken(request.headers.authorization);
    const valid = token !== undefined && credentialKind(token) !== 'unknown' && (await deps.credentials.has(hashSecret(token)));
    return { valid };
  });
}
