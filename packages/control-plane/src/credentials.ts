import type { Pool } from 'pg';

/** A project as a reader (a dashboard, a subscriber) sees it. */
export interface VisibleProject {
  project_key: string;
  name: string;
}

/**
 * Who a user token belongs to, by its SHA-256 (tokens are stored only hashed):
 * the one lookup of it, for the gateway and the broadcast service alike.
 */
export async function findUserByTokenHash(pool: Pool, tokenHash: Buffer): Promise<{ id: number; account_id: number } | undefined> {
  const { rows } = await pool.query<{ id: number; account_id: number }>('SELECT id, account_id FROM users WHERE token_hash = $1', [tokenHash]);
  return rows[0];
}

/** The live project an API key (by its SHA-256) opens. */
export async function projectByKeyHash(pool: Pool, hash: Buffer): Promise<VisibleProject | undefined> {
  const { rows } = await pool.query<VisibleProject>('SELECT project_key, name FROM projects WHERE api_key_hash = $1 AND deleted_at IS NULL', [hash]);
  return rows[0];
}

/** An account's live projects, ordered by key. */
export async function accountProjects(pool: Pool, accountId: number): Promise<VisibleProject[]> {
  const { rows } = await pool.query<VisibleProject>('SELECT project_key, name FROM projects WHERE account_id = $1 AND deleted_at IS NULL ORDER BY project_key', [accountId]);
  return rows;
}

/** Which of these credential hashes (hex) still open something: the rest were regenerated or deleted. */
export async function liveCredentials(pool: Pool, keyHashes: Buffer[], tokenHashes: Buffer[]): Promise<Set<string>> {
  const live = new Set<string>();
  if (keyHashes.length > 0) {
    const { rows } = await pool.query<{ h: Buffer }>('SELECT api_key_hash AS h FROM projects WHERE api_key_hash = ANY($1::bytea[]) AND deleted_at IS NULL', [keyHashes]);
    for (const r of rows) live.add(r.h.toString('hex'));
  }
  if (tokenHashes.length > 0) {
    const { rows } = await pool.query<{ h: Buffer }>('SELECT token_hash AS h FROM users WHERE token_hash = ANY($1::bytea[])', [tokenHashes]);
    for (const r of rows) live.add(r.h.toString('hex'));
  }
  return live;
}

/** Which of these projects still exist (not deleted). */
export async function liveProjects(pool: Pool, projectKeys: string[]): Promise<Set<string>> {
  if (projectKeys.length === 0) return new Set();
  const { rows } = await pool.query<{ project_key: string }>('SELECT project_key FROM projects WHERE project_key = ANY($1::text[]) AND deleted_at IS NULL', [projectKeys]);
  return new Set(rows.map((r) => r.project_key));
}
