import type { Pool } from '@pulseboard/db';
import { withCapLock } from './cap-lock.ts';
import { isUniqueViolation } from './unique-violation.ts';

export interface UserRecord {
  id: number;
  account_id: number;
  email: string;
}

/** What is stored of a user token: never the secret, only its hash (not returned) and first characters. */
export interface UserTokenRecord {
  id: number;
  user_id: number;
  label: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** A new user token as stored: its hash, the characters shown in lists, its label and expiry. */
export interface NewUserToken {
  hash: Buffer;
  prefix: string;
  label: string;
  expiresAt: Date | null;
}

/** Who holds a user token (expired or not): the lookup every service shares. */
export { findUserByTokenHash, userTokenByHash } from '@pulseboard/control-plane';

const TOKEN_COLUMNS = 'id, user_id, label, token_prefix AS prefix, created_at, expires_at, last_used_at';

/** A new user of an account with its first token, in one statement; `no_account`, or `taken` when the email is. */
export async function insertUser(pool: Pool, accountId: number, email: string, token: NewUserToken): Promise<UserRecord | 'no_account' | 'taken'> {
  try {
    const { rows } = await pool.query<UserRecord>(
      `WITH u AS (INSERT INTO users (account_id, email) SELECT id, $2 FROM accounts WHERE id = $1 RETURNING id, account_id, email),
            t AS (INSERT INTO user_tokens (user_id, label, token_hash, token_prefix, expires_at) SELECT id, $5, $3, $4, $6 FROM u)
       SELECT id, account_id, email FROM u`,
      [accountId, email, token.hash, token.prefix, token.label, token.expiresAt],
    );
    return rows[0] ?? 'no_account';
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

export async function listAccountUsers(pool: Pool, accountId: number): Promise<(UserRecord & { created_at: Date })[]> {
  const { rows } = await pool.query<UserRecord & { created_at: Date }>(
    'SELECT id, account_id, email, created_at FROM users WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return rows;
}

/** Replaces every token of a user by one new one, in one statement: the old ones stop working at once (tokens are looked up on every request). */
export async function replaceUserToken(pool: Pool, userId: number, token: NewUserToken): Promise<UserRecord | undefined> {
  const { rows } = await pool.query<UserRecord>(
    `WITH u AS (SELECT id, account_id, email FROM users WHERE id = $1 FOR UPDATE),
          d AS (DELETE FROM user_tokens WHERE user_id IN (SELECT id FROM u)),
          t AS (INSERT INTO user_tokens (user_id, label, token_hash, token_prefix, expires_at) SELECT id, $4, $2, $3, $5 FROM u)
     SELECT id, account_id, email FROM u`,
    [userId, token.hash, token.prefix, token.label, token.expiresAt],
  );
  return rows[0];
}

/**
 * One more token for a user, unless it holds `maxTokens` already (`limit`);
 * `no_user` when there is no such user. The count is taken under the user's
 * cap lock (cap-lock.ts, as tiles and notification services are), in a
 * statement after the lock is held, so concurrent calls cannot both pass the cap.
 *
 * `parentHash`: the token making the request (self-service). A token cannot
 * make one that outlives it: with an expiry of its own, the new token's is at
 * most that (`outlives`, with the parent's expiry, when asked for later), and
 * none asked for means the parent's. `no_parent` when that token is no longer
 * the user's (revoked meanwhile).
 */
export async function insertUserToken(
  pool: Pool,
  userId: number,
  token: NewUserToken,
  maxTokens: number,
  options: {
    parentHash?: Buffer;
    /** Told the expiry the token gets (its parent's, when clamped), before its row commits (the valid-credential set). */
    beforeCommit?: (expiresAt: Date | null) => Promise<void>;
  } = {},
): Promise<UserTokenRecord | 'no_user' | 'no_parent' | 'limit' | { outlives: Date }> {
  return withCapLock(pool, `user_tokens:${userId}`, async (client) => {
    let expiresAt = token.expiresAt;
    if (options.parentHash !== undefined) {
      const { rows: parents } = await client.query<{ expires_at: Date | null }>('SELECT expires_at FROM user_tokens WHERE token_hash = $1 AND user_id = $2', [
        options.parentHash,
        userId,
      ]);
      const parent = parents[0];
      if (parent === undefined) return 'no_parent';
      if (parent.expires_at !== null) {
        if (expiresAt === null) expiresAt = parent.expires_at;
        else if (expiresAt.getTime() > parent.expires_at.getTime()) return { outlives: parent.expires_at };
      }
    }
    await options.beforeCommit?.(expiresAt);
    const { rows } = await client.query<Partial<UserTokenRecord> & { found: boolean }>(
      `WITH u AS (SELECT id FROM users WHERE id = $1 FOR UPDATE),
            ins AS (INSERT INTO user_tokens (user_id, label, token_hash, token_prefix, expires_at)
                    SELECT id, $4, $2, $3, $5 FROM u WHERE (SELECT count(*) FROM user_tokens WHERE user_id = u.id) < $6
                    RETURNING ${TOKEN_COLUMNS})
       SELECT EXISTS (SELECT 1 FROM u) AS found, ins.* FROM (SELECT 1) one LEFT JOIN ins ON true`,
      [userId, token.hash, token.prefix, token.label, expiresAt, maxTokens],
    );
    const row = rows[0]!;
    if (!row.found) return 'no_user';
    if (row.id === null || row.id === undefined) return 'limit';
    const { found: _found, ...record } = row;
    return record as UserTokenRecord;
  });
}

/** A user's tokens, oldest first; undefined when there is no such user. */
export async function listUserTokens(pool: Pool, userId: number): Promise<UserTokenRecord[] | undefined> {
  const { rows } = await pool.query<UserTokenRecord & { found: boolean }>(
    `SELECT true AS found, t.* FROM users u LEFT JOIN LATERAL (SELECT ${TOKEN_COLUMNS} FROM user_tokens WHERE user_id = u.id) t ON true WHERE u.id = $1 ORDER BY t.id`,
    [userId],
  );
  if (rows.length === 0) return undefined;
  return rows.filter((r) => r.id !== null).map(({ found: _found, ...record }) => record);
}

/**
 * Revokes (deletes) one token of a user: the very next request with it is refused. The revoked token's hash
 * (for the valid-credential set to forget), or undefined when the user has no such token.
 */
export async function revokeUserToken(pool: Pool, userId: number, tokenId: number): Promise<Buffer | undefined> {
  const { rows } = await pool.query<{ token_hash: Buffer }>('DELETE FROM user_tokens WHERE id = $1 AND user_id = $2 RETURNING token_hash', [tokenId, userId]);
  return rows[0]?.token_hash;
}

/** Records that a token was used (a hint, written at most about once a minute per token and gateway). */
export async function touchUserToken(pool: Pool, tokenId: number): Promise<void> {
  await pool.query('UPDATE user_tokens SET last_used_at = now() WHERE id = $1', [tokenId]);
}

export async function deleteUser(pool: Pool, userId: number): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM users WHERE id = $1', [userId]);
  return (rowCount ?? 0) > 0;
}
