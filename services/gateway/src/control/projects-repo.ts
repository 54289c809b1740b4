import type { Pool, PoolClient } from 'pg';
import type { Redis } from 'ioredis';
import { generateSecret, hashSecret, API_KEY_PREFIX } from '../auth/credentials.ts';
import { Limiter } from '../limits/limiter.ts';
import { publishRevision } from '../auth/project-directory.ts';

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
  redis: Redis,
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

export { publishRevision };
