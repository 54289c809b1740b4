import type { Pool } from 'pg';
import type { Page } from '../params/pagination.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { controlWrite, controlWrites, type ControlFeed } from './control-writes.ts';

export interface ProjectRecord {
  project_key: string;
  account_id: number;
  name: string;
  api_key_prefix: string;
  burst_limit: number | null;
  hourly_request_limit: number | null;
  monthly_quota: number;
  retention_days: number | null;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const PROJECT_COLUMNS =
  'project_key, account_id, name, api_key_prefix, burst_limit, hourly_request_limit, monthly_quota, retention_days, settings, created_at, updated_at';

/** What authentication keeps of a project: its key's hash, revision and limits (account's hourly limit included). */
export interface ProjectAuthRow {
  project_key: string;
  account_id: number;
  name: string;
  revision: number;
  api_key_hash: Buffer;
  deleted_at: Date | null;
  burst_limit: number | null;
  hourly_request_limit: number | null;
  account_hourly_request_limit: number | null;
  monthly_quota: number;
  retention_days: number | null;
}

const SELECT_PROJECT_AUTH = `
  SELECT p.project_key, p.account_id, p.name, p.revision, p.api_key_hash, p.deleted_at,
         p.burst_limit, p.hourly_request_limit, a.hourly_request_limit AS account_hourly_request_limit, p.monthly_quota, p.retention_days
    FROM projects p JOIN accounts a ON a.id = p.account_id`;

/** A project (deleted ones too) by the hash of its API key or by its key. */
export async function findProjectAuth(pool: Pool, by: { apiKeyHash: Buffer } | { projectKey: string }): Promise<ProjectAuthRow | undefined> {
  const { rows } =
    'apiKeyHash' in by
      ? await pool.query<ProjectAuthRow>(`${SELECT_PROJECT_AUTH} WHERE p.api_key_hash = $1`, [by.apiKeyHash])
      : await pool.query<ProjectAuthRow>(`${SELECT_PROJECT_AUTH} WHERE p.project_key = $1`, [by.projectKey]);
  return rows[0];
}

export interface NewProject {
  project_key: string;
  name: string;
  monthly_quota: number;
  burst_limit?: number | undefined;
  hourly_request_limit?: number | undefined;
  retention_days?: number | undefined;
}

/** Creates a project of an account with its key's hash (announced on the control topic at revision 1); `no_account` or `taken` (the project key) otherwise. */
export async function insertProject(
  pool: Pool,
  feed: ControlFeed,
  accountId: number,
  p: NewProject,
  key: { hash: Buffer; prefix: string },
): Promise<ProjectRecord | 'no_account' | 'taken'> {
  try {
    const created = await controlWrites(pool, feed, async (client) => {
      const { rows } = await client.query<ProjectRecord & { revision: number }>(
        `INSERT INTO projects (project_key, account_id, name, api_key_hash, api_key_prefix, monthly_quota, burst_limit, hourly_request_limit, retention_days)
       SELECT $2, id, $3, $4, $5, $6, $7, $8, $9 FROM accounts WHERE id = $1
       RETURNING ${PROJECT_COLUMNS}, revision`,
        [
          accountId,
          p.project_key,
          p.name,
          key.hash,
          key.prefix,
          p.monthly_quota,
          p.burst_limit ?? null,
          p.hourly_request_limit ?? null,
          p.retention_days ?? null,
        ],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      return { result: row, projects: [{ projectKey: row.project_key, changes: [{ change: 'project_created' }], createdRevision: Number(row.revision) }] };
    });
    if (created === undefined) return 'no_account';
    const { revision: _revision, ...project } = created;
    return project;
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

/** A live project of an account, or undefined. */
export async function findLiveProject(pool: Pool, accountId: number, projectKey: string): Promise<ProjectRecord | undefined> {
  const { rows } = await pool.query<ProjectRecord>(
    `SELECT ${PROJECT_COLUMNS} FROM projects WHERE project_key = $1 AND account_id = $2 AND deleted_at IS NULL`,
    [projectKey, accountId],
  );
  return rows[0];
}

/** The live projects of an account, ordered by key. */
export async function listAccountProjects(pool: Pool, accountId: number): Promise<ProjectRecord[]> {
  const { rows } = await pool.query<ProjectRecord>(
    `SELECT ${PROJECT_COLUMNS} FROM projects WHERE account_id = $1 AND deleted_at IS NULL ORDER BY project_key`,
    [accountId],
  );
  return rows;
}

/** The keys of an account's live projects, ordered, narrowed to `requested` when given. */
export async function liveProjectKeys(pool: Pool, accountId: number, requested?: string): Promise<string[]> {
  const { rows } = await pool.query<{ project_key: string }>(
    'SELECT project_key FROM projects WHERE account_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2) ORDER BY project_key',
    [accountId, requested ?? null],
  );
  return rows.map((r) => r.project_key);
}

/** One page of live projects (one project, or an account's), ordered by key, with the exact total (an account has few). */
export async function listLiveProjects(
  pool: Pool,
  scope: { projectKey: string } | { accountId: number },
  page: Page,
): Promise<{ rows: ProjectRecord[]; total: number }> {
  const [where, params]: [string, unknown[]] =
    'projectKey' in scope ? ['project_key = $1 AND deleted_at IS NULL', [scope.projectKey]] : ['account_id = $1 AND deleted_at IS NULL', [scope.accountId]];
  const [rows, count] = await Promise.all([
    pool.query<ProjectRecord>(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE ${where} ORDER BY project_key LIMIT $2 OFFSET $3`, [
      ...params,
      page.perPage,
      page.offset,
    ]),
    pool.query<{ total: number }>(`SELECT count(*)::bigint AS total FROM projects WHERE ${where}`, params),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}

export interface ProjectChanges {
  name?: string | undefined;
  settings?: Record<string, unknown> | undefined;
  monthly_quota?: number | undefined;
  burst_limit?: number | null | undefined;
  hourly_request_limit?: number | null | undefined;
  retention_days?: number | null | undefined;
}

// Columns an update may set; names are fixed here, values always travel as parameters.
const UPDATABLE = ['name', 'settings', 'monthly_quota', 'burst_limit', 'hourly_request_limit', 'retention_days'] as const;

/** Applies a validated update; limit changes reach every gateway on the next request (revision bump). */
export async function updateProject(pool: Pool, feed: ControlFeed, projectKey: string, changes: ProjectChanges): Promise<ProjectRecord | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [projectKey];
  for (const column of UPDATABLE) {
    const value = changes[column];
    if (value === undefined) continue;
    params.push(column === 'settings' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  return projectWrite(pool, feed, projectKey, 'project_updated', async (client) => {
    const { rows } = await client.query<ProjectRecord>(
      `UPDATE projects SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE project_key = $1 AND deleted_at IS NULL RETURNING ${PROJECT_COLUMNS}`,
      params,
    );
    return rows[0];
  });
}

/**
 * Replaces the project's API key (its hash and prefix); the old one is refused on the next request everywhere.
 * Also gives the replaced key's hash, for the valid-credential set to forget.
 */
export async function replaceApiKey(
  pool: Pool,
  feed: ControlFeed,
  projectKey: string,
  key: { hash: Buffer; prefix: string },
): Promise<{ project: ProjectRecord; previousKeyHash: Buffer } | undefined> {
  return projectWrite(pool, feed, projectKey, 'project_key_regenerated', async (client) => {
    const { rows: old } = await client.query<{ api_key_hash: Buffer }>(
      'SELECT api_key_hash FROM projects WHERE project_key = $1 AND deleted_at IS NULL FOR UPDATE',
      [projectKey],
    );
    if (old[0] === undefined) return undefined;
    const { rows } = await client.query<ProjectRecord>(
      `UPDATE projects SET api_key_hash = $2, api_key_prefix = $3 WHERE project_key = $1 AND deleted_at IS NULL RETURNING ${PROJECT_COLUMNS}`,
      [projectKey, key.hash, key.prefix],
    );
    return rows[0] === undefined ? undefined : { project: rows[0], previousKeyHash: old[0].api_key_hash };
  });
}

/** Soft delete: the project's events stay; its key answers project_not_found from the next request on. */
export async function softDeleteProject(pool: Pool, feed: ControlFeed, projectKey: string): Promise<boolean> {
  const deleted = await projectWrite(pool, feed, projectKey, 'project_deleted', async (client) => {
    const { rowCount } = await client.query('UPDATE projects SET deleted_at = now() WHERE project_key = $1 AND deleted_at IS NULL', [projectKey]);
    return rowCount === 0 ? undefined : true;
  });
  return deleted === true;
}

/** A write of the project row itself: revision, outbox and Redis as for every control-plane write (control-writes.ts). */
function projectWrite<T>(
  pool: Pool,
  feed: ControlFeed,
  projectKey: string,
  change: 'project_updated' | 'project_key_regenerated' | 'project_deleted',
  work: Parameters<typeof controlWrite<T>>[4],
): Promise<T | undefined> {
  return controlWrite(pool, feed, projectKey, () => ({ change }), work, { touchProject: true });
}
