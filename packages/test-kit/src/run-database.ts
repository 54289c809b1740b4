import { randomUUID } from 'node:crypto';
import { TEST_DATABASE_URL } from './env.ts';
import pg from 'pg';

const PREFIX = 'pulseboard_test_run_';
const SCRATCH_PREFIX = 'pulseboard_test_scratch_';

/** The server's `postgres` database, with the URL's credentials. */
function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function withAdmin<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database for one test run, on the server of `baseUrl`, and how
 * to drop it. Databases of earlier runs that nobody is connected to any more
 * (a run killed before its teardown) are dropped first.
 */
export async function createRunDatabase(baseUrl: string, run: string | undefined): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${PREFIX}${(run ?? 'adhoc').replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
  await withAdmin(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database d WHERE datname LIKE $1 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
      [`${PREFIX}%`],
    );
    const scratch = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database d WHERE datname LIKE $1 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
      [`${SCRATCH_PREFIX}%`],
    );
    for (const { datname } of [...rows, ...scratch.rows]) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)}`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  // Held for the whole run: without a session on it, a run starting in parallel (another
  // worktree on the same server) takes this database for a killed run's and drops it.
  const holder = await holdDatabase(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      await holder.end().catch(() => undefined);
      await withAdmin(baseUrl, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)));
    },
  };
}

/** One idle session on the database, which the other runs' clean-up sees; an error on it (a server restart) is ignored. */
async function holdDatabase(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'pulseboard-test-run-holder' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * An empty database of one test's own, on the server of the run's database
 * (TEST_DATABASE_URL), for a test that must not share state with the others
 * (a clock far ahead that would drop their partitions, a schema half
 * migrated). Dropped by `drop()`, or by the next run's setup if it was killed.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL ?? TEST_DATABASE_URL;
  const name = `${SCRATCH_PREFIX}${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await withAdmin(base, async (client) => void (await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`)));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(base, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`))),
  };
}
