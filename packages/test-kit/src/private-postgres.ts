import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './processes.ts';
import { startPrivatePostgresContainer, usesContainers } from './containers.ts';
import { waitFor } from './wait-for.ts';

const run = promisify(execFile);

/**
 * The server binaries: PG_BIN, else Debian's of the newest installed version
 * (/usr/lib/postgresql/N/bin, where deploy/infra.sh's cluster comes from).
 */
function postgresBin(): string {
  if (process.env.PG_BIN !== undefined) return process.env.PG_BIN;
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error('private Postgres: no /usr/lib/postgresql/N/bin/initdb found; install the PostgreSQL server or set PG_BIN');
  return join('/usr/lib/postgresql', newest, 'bin');
}

export interface PrivatePostgres {
  /** The server's `postgres` database (user postgres, no password). */
  url: string;
  /** A URL of the same server for another database. */
  urlFor(database: string): string;
  /** `pg_ctl stop -m fast` (or the container stopped): every connection is cut, new ones are refused. */
  stop(): Promise<void>;
  /** Started again on the same port and data: resolves once it accepts connections. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Until a connection to `url` can run a query. */
export async function postgresAnswers(url: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs, intervalMs: 100, what: `Postgres at ${url}` },
  );
}

/**
 * A Postgres server of a test's own (its own data directory and port; a
 * container with TEST_INFRA=containers) that the test may stop and start
 * without disturbing the one every other test shares.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (usesContainers()) return startPrivatePostgresContainer();
  const bin = postgresBin();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pb-postgres-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  // initdb and postgres refuse to run as root: then as Debian's postgres user, which owns the directory.
  const asUser = process.getuid?.() === 0 ? await systemUser('postgres') : undefined;
  if (asUser !== undefined) chownSync(dir, asUser.uid, asUser.gid);
  const options = { ...(asUser ?? {}), env: { ...process.env, LC_ALL: 'C.UTF-8' }, timeout: 120_000 };
  const failed = (what: string, error: unknown) =>
    new Error(
      `private Postgres: ${what} failed: ${(error as Error).message.split('\n')[0]}\n--- ${log} ---\n${existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-80).join('\n') : '(no log)'}`,
    );
  try {
    await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], options);
  } catch (error) {
    throw failed('initdb', error);
  }
  // A test server: room for five services' pools, and no waiting on the disk.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const start = async () => {
    try {
      await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '90', '-o', serverOptions, 'start'], options);
    } catch (error) {
      throw failed('pg_ctl start', error);
    }
    await postgresAnswers(url);
  };
  const stop = async () => {
    try {
      await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'], options);
    } catch (error) {
      throw failed('pg_ctl stop', error);
    }
  };
  await start();
  return {
    url,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    destroy: async () => {
      if (existsSync(join(data, 'postmaster.pid')))
        await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], options).catch(() => undefined);
      await run('rm', ['-rf', dir]);
    },
  };
}

async function systemUser(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
