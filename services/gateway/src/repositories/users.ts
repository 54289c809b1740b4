import type { Pool } from '@pulseboard/db';
import { isUniqueViolation } from './unique-violation.ts';

export interface UserRecord {
  id: number;
  account_id: number;
  email: string;
}

/** The user holding the token whose hash this is: the lookup every service shares. */
export { findUserByTokenHash } from '@pulseboard/control-plane';

/** A new user of an account; `no_account`, or `taken` when the email is. */
export async function insertUser(pool: Pool, accountId: number, email: string, tokenHash: Buffer): Promise<UserRecord | 'no_account' | 'taken'> {
  try {
    const { rows } = await pool.query<UserRecord>('INSERT INTO users (account_id, email, token_hash) SELECT id, $2, $3 FROM accounts WHERE id = $1 RETURNING id, account_id, email', [accountId, email, tokenHash]);
    return rows[0] ?? 'no_account';
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

export async function listAccountUsers(pool: Pool, accountId: number): Promise<(UserRecord & { created_at: Date })[]> {
  const { rows } = await pool.query<UserRecord & { created_at: Date }>('SELECT id, account_id, email, created_at FROM users WHERE account_id = $1 ORDER BY id', [accountId]);
  return rows;
}

/** Replaces a user's token hash: the old token stops working at once (tokens are looked up on every request). */
export async function replaceUserToken(pool: Pool, userId: number, tokenHash: Buffer): Promise<UserRecord | undefined> {
  const { rows } = await pool.query<UserRecord>('UPDATE users SET token_hash = $2 WHERE id = $1 RETURNING id, account_id, email', [userId, tokenHash]);
  return rows[0];
}

export async function deleteUser(pool: Pool, userId: number): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM users WHERE id = $1', [userId]);
  return (rowCount ?? 0) > 0;
}
