import type pg from 'pg';

/**
 * Who a user token belongs to, by its SHA-256 (tokens are stored only hashed):
 * the one lookup of it, for every service that accepts user tokens (the
 * gateway writes the users table; the broadcast service reads it too).
 */
export async function findUserByTokenHash(pool: pg.Pool, tokenHash: Buffer): Promise<{ id: number; account_id: number } | undefined> {
  const { rows } = await pool.query<{ id: number; account_id: number }>('SELECT id, account_id FROM users WHERE token_hash = $1', [tokenHash]);
  return rows[0];
}
