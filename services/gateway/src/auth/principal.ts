import type { FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import { liveProjectKeys } from '../repositories/projects.ts';
import type { Authenticator, Credential } from './authenticator.ts';

/** The credential of a /api/v1 resource request. */
export type Principal = Credential;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `principalHook`. */
    principal?: Principal;
  }
}

/** An onRequest hook: authenticates before the body is read or validated, so a bad credential is 401 whatever the body. */
export function principalHook(auth: Pick<Authenticator, 'principal'>) {
  return async (request: FastifyRequest): Promise<void> => {
    request.principal = await auth.principal(request.headers.authorization, request.clientAddress);
  };
}

/** The account whose projects a principal may see. */
export function accountOf(principal: Principal): number {
  return principal.kind === 'project' ? principal.project.accountId : principal.accountId;
}

/** Whether a principal may see this project at all (before asking Postgres whether it exists): a project key sees only its own. */
export function mayNameProject(principal: Principal, projectKey: string): boolean {
  return principal.kind === 'user' || principal.project.projectKey === projectKey;
}

/**
 * The project keys a principal may read, narrowed by an optional requested key.
 * A project that is not the principal's answers as not found (no existence leak).
 */
export async function readableProjects(principal: Principal, pool: Pool, requested?: string): Promise<string[]> {
  if (principal.kind === 'project') {
    if (requested !== undefined && requested !== principal.project.projectKey) return [];
    return [principal.project.projectKey];
  }
  return liveProjectKeys(pool, principal.accountId, requested);
}

/** For actions a project key may not take (limits, key regeneration): CONTRACT.md's 403 `user_token_required`. */
export function userTokenRequired(what: string): PulseboardError {
  return new PulseboardError('user_token_required', { message: `${what} needs a user token, not a project API key` });
}
