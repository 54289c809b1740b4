import type { Pool, PoolClient } from 'pg';
import type { RedisClient } from '../redis-client.ts';
import { generateSecret, hashSecret, API_KEY_PREFIX } from '../auth/credentials.ts';
import { Limiter } from '../limits/limiter.ts';
import { publishRevision } from '../auth/project-directory.ts';
import type { Principal } from '../auth/principal.ts';
import type { Page } from '../routes/pagination.ts';
import type { UpdateProjectBody } from './project-schemas.ts';

export interface ProjectRecord {
  project_key: string;
  account_id: number;
  name: string;
  api_key_prefix: string;
  burst_limit: number | null;
  hourly_request_limit: number | null;
  monthly_quota: number;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const PROJECT_COLUMNS = 'project_key, account_id, name, api_key_prefix, burst_limit, hourly_request_limit, monthly_quota, settings, created_at, updated_at';

/** A new API key and what is stored of it. */
export function newApiKey(): { apiKey: string; hash: Buffer; prefix: string } {
  const apiKey = generateSecret(API_KEY_PREFIX);
  return { apiKey, hash: hashSecret(apiKey), prefix: apiKey.slice(0, API_KEY_PREFIX.length + 6) };
}

/**
 * Changes a project row in a transaction that also bumps its revision, and
 * publishes the new revision to Redis before committing: from that moment every
 * gateway's cached copy is stale and is re-read, so an old key or limit is
 * refused on the very next request. On failure Redis is put back to what
 * Postgres holds.
 */
export async function changeProject<T>(
  pool: Pool,
  redis: RedisClient,
  projectKey: string,
  change: (client: PoolClient) => Promise<T | undefined>,
): Promise<T | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await change(client);
    if (result === undefined) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const { rows } = await client.query<{ revision: number }>('UPDATE projects SET revision = revision + 1, updated_at = now() WHERE project_key = $1 RETURNING revision', [projectKey]);
    await redis.set(Limiter.revisionKey(projectKey), String(rows[0]!.revision));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const { rows } = await pool.query<{ revision: number }>('SELECT revision FROM projects WHERE project_key = $1', [projectKey]).catch(() => ({ rows: [] as { revision: number }[] }));
    if (rows[0] !== undefined) await redis.set(Limiter.revisionKey(projectKey), String(rows[0].revision)).catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A project the principal may see (its own with a project key, its account's with a user token), or undefined. */
export async function findVisibleProject(pool: Pool, principal: Principal, projectKey: string): Promise<ProjectRecord | undefined> {
  if (principal.kind === 'project' && principal.project.projectKey !== projectKey) return undefined;
  const accountId = principal.kind === 'project' ? principal.project.accountId : principal.accountId;
  const { rows } = await pool.query<ProjectRecord>(
    `SELECT ${PROJECT_COLUMNS} FROM projects WHERE project_key = $1 AND account_id = $2 AND deleted_at IS NULL`,
    [projectKey, accountId],
  );
  return rows[0];
}

/** One page of the projects a principal may see, ordered by key, with the exact total (an account has few). */
export async function listVisibleProjects(pool: Pool, principal: Principal, page: Page): Promise<{ rows: ProjectRecord[]; total: number }> {
  const [where, params]: [string, unknown[]] =
    principal.kind === 'project'
      ? ['project_key = $1 AND deleted_at IS NULL', [principal.project.projectKey]]
      : ['account_id = $1 AND deleted_at IS NULL', [principal.accountId]];
  const [rows, count] = await Promise.all([
    pool.query<ProjectRecord>(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE ${where} ORDER BY project_key LIMIT $2 OFFSET $3`, [...params, page.perPage, page.offset]),
    pool.query<{ total: number }>(`SELECT count(*)::bigint AS total FROM projects WHERE ${where}`, params),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}

// Columns a PUT may set; names are fixed here, values always travel as parameters.
const UPDATABLE = ['name', 'settings', 'monthly_quota', 'burst_limit', 'hourly_request_limit'] as const;

/** Applies a validated update; limit changes reach every gateway on the next request (revision bump). */
export async function updateProject(pool: Pool, redis: RedisClient, projectKey: string, body: UpdateProjectBody): Promise<ProjectRecord | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [projectKey];
  for (const column of UPDATABLE) {
    const value = body[column];
    if (value === undefined) continue;
    params.push(column === 'settings' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  return changeProject(pool, redis, projectKey, async (client) => {
    const { rows } = await client.query<ProjectRecord>(
      `UPDATE projects SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE project_key = $1 AND deleted_at IS NULL RETURNING ${PROJECT_COLUMNS}`,
      params,
    );
    return rows[0];
  });
}

/** Replaces the project's API key; the old one is refused on the next request everywhere. Returns the new key once. */
export async function regenerateApiKey(pool: Pool, redis: RedisClient, projectKey: string): Promise<{ project: ProjectRecord; apiKey: string } | undefined> {
  const { apiKey, hash, prefix } = newApiKey();
  const project = await changeProject(pool, redis, projectKey, async (client) => {
    const { rows } = await client.query<ProjectRecord>(
      `UPDATE projects SET api_key_hash = $2, api_key_prefix = $3 WHERE project_key = $1 AND deleted_at IS NULL RETURNING ${PROJECT_COLUMNS}`,
      [projectKey, hash, prefix],
    );
    return rows[0];
  });
  return project === undefined ? undefined : { project, apiKey };
}

export { publishRevision };
