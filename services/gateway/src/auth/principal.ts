import type { FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { RedisClient } from '../redis-client.ts';
import type { ProjectAuth, ProjectDirectory } from './project-directory.ts';
import { API_KEY_PREFIX, USER_TOKEN_PREFIX, bearerToken, hashSecret } from './credentials.ts';
import { Limiter } from '../limits/limiter.ts';
import { apiError, errors, type ApiError } from '../replies.ts';

export type Principal =
  | { kind: 'project'; project: ProjectAuth; apiKey: string }
  | { kind: 'user'; userId: number; accountId: number };

declare module 'fastify' {
  interface FastifyRequest {
    /** The credential of a /api/v1 resource request, set by `authenticate`. */
    principal?: Principal;
  }
}

export interface PrincipalDeps {
  directory: ProjectDirectory;
  pool: Pool;
  redis: RedisClient;
}

/**
 * Resolves the Bearer credential of a /api/v1 request: a project API key
 * (evk_) or a user token (evu_). User tokens are looked up on every request
 * (these routes are not the hot path), so a deleted user is locked out at once.
 * A cached project is checked against its revision in Redis, as /ingest does,
 * so a regenerated key is refused here too on the very next request, on every
 * gateway instance.
 */
export async function resolvePrincipal(request: FastifyRequest, deps: PrincipalDeps): Promise<Principal | ApiError> {
  const secret = bearerToken(request.headers.authorization);
  if (secret === undefined) return errors.authenticationRequired();
  if (secret.startsWith(USER_TOKEN_PREFIX)) {
    const { rows } = await deps.pool.query<{ id: number; account_id: number }>('SELECT id, account_id FROM users WHERE token_hash = $1', [hashSecret(secret)]);
    const user = rows[0];
    return user === undefined ? errors.invalidApiKey() : { kind: 'user', userId: user.id, accountId: user.account_id };
  }
  if (!secret.startsWith(API_KEY_PREFIX)) return errors.invalidApiKey();
  let project = await deps.directory.byApiKey(secret);
  if (project === undefined) return errors.invalidApiKey();
  const current = await deps.redis.get(Limiter.revisionKey(project.projectKey));
  if (current !== String(project.revision)) {
    // Stale or unknown in Redis: Postgres decides whether this key is still the project's.
    project = await deps.directory.refresh(project, secret);
    if (project === undefined) return errors.invalidApiKey();
  }
  if (project.deleted) return errors.projectNotFound();
  return { kind: 'project', project, apiKey: secret };
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
}

/** An onRequest hook: authenticates before the body is read or validated, so a bad credential is 401 whatever the body. */
export function authenticate(deps: PrincipalDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) throw Object.assign(new Error(principal.message), { pulseboard: principal });
    request.principal = principal;
  };
}

/** For actions a project key may not take (limits, key regeneration): CONTRACT.md's 403 `user_token_required`. */
export function userTokenRequired(what: string): ApiError {
  return apiError(403, 'user_token_required', `${what} needs a user token, not a project API key`);
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
  const { rows } = await pool.query<{ project_key: string }>(
    'SELECT project_key FROM projects WHERE account_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2) ORDER BY project_key',
    [principal.accountId, requested ?? null],
  );
  return rows.map((r) => r.project_key);
}
