import type { Pool } from '@pulseboard/db';

export interface AccountRecord {
  id: number;
  name: string;
  hourly_request_limit: number | null;
}

export async function insertAccount(pool: Pool, name: string, hourlyRequestLimit: number | undefined): Promise<AccountRecord> {
  const { rows } = await pool.query<AccountRecord>('INSERT INTO accounts (name, hourly_request_limit) VALUES ($1, $2) RETURNING id, name, hourly_request_limit', [name, hourlyRequestLimit ?? null]);
  return rows[0]!;
}

export async function listAccounts(pool: Pool): Promise<(AccountRecord & { created_at: Date })[]> {
  const { rows } = await pool.query<AccountRecord & { created_at: Date }>('SELECT id, name, hourly_request_limit, created_at FROM accounts ORDER BY id');
  return rows;
}

export async function accountExists(pool: Pool, id: number): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM accounts WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}
