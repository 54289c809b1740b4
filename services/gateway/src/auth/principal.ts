import type { FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { ProjectAuth, ProjectDirectory } from './project-directory.ts';
import { API_KEY_PREFIX, USER_TOKEN_PREFIX, bearerToken, hashSecret } from './credentials.ts';
import { errors, type ApiError } from '../replies.ts';

export type Principal =
  | { kind: 'project'; project: ProjectAuth; apiKey: string }
  | { kind: 'user'; userId: number; accountId: number };

/**
 * Resolves the Bearer credential of a /api/v1 request: a project API key
 * (evk_) or a user token (evu_). User tokens are looked up on every request
 * (these routes are not the hot path), so a deleted user is locked out at once.
 */
export async function resolvePrincipal(request: FastifyRequest, deps: { directory: ProjectDirectory; pool: Pool }): Promise<Principal | ApiError> {
  const secret = bearerToken(request.headers.authorization);
  if (secret === undefined) return errors.authenticationRequired();
  if (secret.startsWith(USER_TOKEN_PREFIX)) {
    const { rows } = await deps.pool.query<{ id: number; account_id: number }>('SELECT id, account_id FROM users WHERE token_hash = $1', [hashSecret(secret)]);
    const user = rows[0];
    return user === undefined ? errors.invalidApiKey() : { kind: 'user', userId: user.id, accountId: user.account_id };
  }
  if (!secret.startsWith(API_KEY_PREFIX)) return errors.invalidApiKey();
  const project = await deps.directory.byApiKey(secret);
  if (project === undefined) return errors.invalidApiKey();
  if (project.deleted) return errors.projectNotFound();
  return { kind: 'project', project, apiKey: secret };
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
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
    'SELECT project_key FROM projects WHERE account_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2)',
    [principal.accountId, requested ?? null],
  );
  return rows.map((r) => r.project_key);
}
