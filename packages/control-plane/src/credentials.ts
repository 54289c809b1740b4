import type { Pool } from 'pg';
import { credentialKind, hashSecret } from '@pulseboard/contracts';

/** A project as a reader (a dashboard, a subscriber) sees it. */
export interface VisibleProject {
  project_key: string;
  name: string;
}

/** A user token as authentication sees it: whose it is, and whether it has expired. */
export interface UserTokenHolder {
  id: number;
  account_id: number;
  token_id: number;
  expired: boolean;
}

/**
 * Who a user token belongs to, by its SHA-256 (tokens are stored only hashed),
 * expired or not (the gateway answers an expired one with its own message).
 * Expiry is judged by Postgres' clock, the same one `liveCredentials` uses.
 */
export async function userTokenByHash(pool: Pool, tokenHash: Buffer): Promise<UserTokenHolder | undefined> {
  const { rows } = await pool.query<UserTokenHolder>(
    `SELECT u.id, u.account_id, t.id AS token_id, coalesce(t.expires_at <= now(), false) AS expired
       FROM user_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  return row === undefined ? undefined : { ...row, token_id: Number(row.token_id) };
}

/** Who a live (not revoked, not expired) user token belongs to: the lookup of the broadcast service. */
export async function findUserByTokenHash(pool: Pool, tokenHash: Buffer): Promise<{ id: number; account_id: number } | undefined> {
  const holder = await userTokenByHash(pool, tokenHash);
  return holder === undefined || holder.expired ? undefined : { id: holder.id, account_id: holder.account_id };
}

/** The live project an API key (by its SHA-256) opens. */
export async function projectByKeyHash(pool: Pool, hash: Buffer): Promise<VisibleProject | undefined> {
  const { rows } = await pool.query<VisibleProject>('SELECT project_key, name FROM projects WHERE api_key_hash = $1 AND deleted_at IS NULL', [hash]);
  return rows[0];
}

/** An account's live projects, ordered by key. */
export async function accountProjects(pool: Pool, accountId: number): Promise<VisibleProject[]> {
  const { rows } = await pool.query<VisibleProject>(
    'SELECT project_key, name FROM projects WHERE account_id = $1 AND deleted_at IS NULL ORDER BY project_key',
    [accountId],
  );
  return rows;
}

/** Which of these credential hashes (hex) still open something: the rest were regenerated, revoked, expired or deleted. */
export async function liveCredentials(pool: Pool, keyHashes: Buffer[], tokenHashes: Buffer[]): Promise<Set<string>> {
  const live = new Set<string>();
  if (keyHashes.length > 0) {
    const { rows } = await pool.query<{ h: Buffer }>('SELECT api_key_hash AS h FROM projects WHERE api_key_hash = ANY($1::bytea[]) AND deleted_at IS NULL', [
      keyHashes,
    ]);
    for (const r of rows) live.add(r.h.toString('hex'));
  }
  if (tokenHashes.length > 0) {
    const { rows } = await pool.query<{ h: Buffer }>(
      'SELECT token_hash AS h FROM user_tokens WHERE token_hash = ANY($1::bytea[]) AND (expires_at IS NULL OR expires_at > now())',
      [tokenHashes],
    );
    for (const r of rows) live.add(r.h.toString('hex'));
  }
  return live;
}

/** Which of these projects still exist (not deleted). */
export async function liveProjects(pool: Pool, projectKeys: string[]): Promise<Set<string>> {
  if (projectKeys.length === 0) return new Set();
  const { rows } = await pool.query<{ project_key: string }>('SELECT project_key FROM projects WHERE project_key = ANY($1::text[]) AND deleted_at IS NULL', [
    projectKeys,
  ]);
  return new Set(rows.map((r) => r.project_key));
}

/** Who a reader's credential (a project API key or a user token) is, and what it may read. */
export type Reader =
  | { kind: 'project'; credentialHash: Buffer; projects: VisibleProject[] }
  | { kind: 'user'; credentialHash: Buffer; accountId: number; projects: VisibleProject[] };

/**
 * Authenticates a reader (a dashboard, a subscriber): a live project's API key
 * opens that project, a live (not revoked, not expired) user token its
 * account's live projects. Anything else, undefined. Tokens are looked up by
 * their SHA-256 only. The broadcast service authenticates through this.
 */
export async function authenticateReader(pool: Pool, token: string): Promise<Reader | undefined> {
  const kind = credentialKind(token);
  const hash = hashSecret(token);
  if (kind === 'project') {
    const project = await projectByKeyHash(pool, hash);
    return project === undefined ? undefined : { kind, credentialHash: hash, projects: [project] };
  }
  if (kind === 'user') {
    const user = await findUserByTokenHash(pool, hash);
    return user === undefined ? undefined : { kind, credentialHash: hash, accountId: user.account_id, projects: await accountProjects(pool, user.account_id) };
  }
  return undefined;
}
