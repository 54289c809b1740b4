import type { Pool } from '@pulseboard/db';

export interface AccountRecord {
  id: number;
  name: string;
  hourly_request_limit: number | null;
}

export async function insertAccount(pool: Pool, name: string, hourlyRequestLimit: number | undefined): Promise<AccountRecord> {
  const { rows } = await pool.query<AccountRecord>(
    'INSERT INTO accounts (name, hourly_request_limit) VALUES ($1, $2) RETURNING id, name, hourly_request_limit',
    [name, hourlyRequestLimit ?? null],
  );
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

/** What a user token may set a project's limits to at most; null: the environment's ceiling. */
export interface AccountCeilings {
  max_monthly_quota: number | null;
  max_burst_limit: number | null;
  max_hourly_request_limit: number | null;
}

export async function findAccountCeilings(pool: Pool, id: number): Promise<AccountCeilings | undefined> {
  const { rows } = await pool.query<AccountCeilings>('SELECT max_monthly_quota, max_burst_limit, max_hourly_request_limit FROM accounts WHERE id = $1', [id]);
  return rows[0];
}

/** Sets the ceilings named (null puts the environment's back); undefined when there is no such account. */
export async function updateAccountCeilings(
  pool: Pool,
  id: number,
  ceilings: Partial<AccountCeilings>,
): Promise<(AccountRecord & AccountCeilings) | undefined> {
  const names = (['max_monthly_quota', 'max_burst_limit', 'max_hourly_request_limit'] as const).filter((n) => ceilings[n] !== undefined);
  const sets = names.map((n, i) => `${n} = $${i + 2}`);
  const { rows } = await pool.query<AccountRecord & AccountCeilings>(
    `UPDATE accounts SET ${sets.length === 0 ? 'id = id' : sets.join(', ')} WHERE id = $1 RETURNING id, name, hourly_request_limit, max_monthly_quota, max_burst_limit, max_hourly_request_limit`,
    [id, ...names.map((n) => ceilings[n])],
  );
  return rows[0];
}
