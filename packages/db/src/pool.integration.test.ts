import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPool } from './pool.ts';
import { ensureDatabase } from './ensure-database.ts';

// A database whose default zone is not UTC, as a server configured elsewhere might be.
// The test kit's global setup names the run's database (this package sits below the test kit).
const base = process.env.TEST_DATABASE_URL;
if (base === undefined) throw new Error("TEST_DATABASE_URL is set by the integration suite's global setup");
const url = new URL(base);
url.pathname = '/pulseboard_tz_test';

describe('database sessions', () => {
  beforeAll(async () => {
    await ensureDatabase(url.toString());
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query("ALTER DATABASE pulseboard_tz_test SET timezone = 'Asia/Tokyo'");
    await admin.end();
  });
  const pool = createPool({ connectionString: url.toString(), applicationName: 'tz-test' });
  afterAll(() => pool.end());

  it('read a timestamp without an offset as UTC, whatever the server or database zone', async () => {
    const { rows } = await pool.query("SELECT '2026-01-02T03:04:05'::timestamptz = '2026-01-02T03:04:05Z'::timestamptz AS utc");
    expect(rows[0].utc).toBe(true);
  });
});
