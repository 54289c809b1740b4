/**
 * bench:pipeline's own Postgres, Kafka broker and Redis, so that every CPU
 * second they spend is the pipeline's (the machine's shared ones serve other
 * work too) and their settings are the run's to choose.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@pulseboard/test-kit';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Infra {
  databaseUrl: string;
  brokers: string;
  redisUrl: string;
  pids(): { postgres: number; kafka: number; redis: number };
  stop(): Promise<void>;
}

/** initdb runs as the postgres user when we are root (it refuses root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

/**
 * `settings`: postgresql.conf lines for this run (a checkout's
 * deploy/postgres/pulseboard.conf when it has one), on top of Debian's
 * defaults. pg_stat_statements is loaded for the profile.
 */
async function startPostgres(settings: string): Promise<{ url: string; pid: () => number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pb-pipeline-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await run('id', ['-u', 'postgres']).then(async (u) => ({
      uid: Number(u.stdout),
      gid: Number((await run('id', ['-g', 'postgres'])).stdout),
    }));
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  await run(...asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']));
  const port = await freePort();
  const conf = ['shared_preload_libraries = pg_stat_statements', 'pg_stat_statements.track = all', settings].join('\n');
  await run(...asPostgres('bash', ['-c', `cat >> ${data}/postgresql.conf <<'CONF'\n${conf}\nCONF`]));
  await run(...asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']));
  const url = `postgres://postgres@127.0.0.1:${port}/pulseboard`;
  await run('psql', [`postgres://postgres@127.0.0.1:${port}/postgres`, '-qc', 'CREATE DATABASE pulseboard']);
  await run('psql', [url, '-qc', 'CREATE EXTENSION pg_stat_statements']);
  return {
    url,
    pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: async () => {
      await run(...asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop'])).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private broker from deploy/kafka.sh (the same jars as the shared one). */
async function startKafka(root: string): Promise<{ brokers: string; pid: () => number; stop(): Promise<void> }> {
  const version = /<kafka.version>(.*)<\/kafka.version>/.exec(readFileSync(join(root, 'deploy/kafka/pom.xml'), 'utf8'))![1]!;
  const sharedState = process.env.PULSEBOARD_STATE_DIR ?? join(homedir(), '.cache/pulseboard');
  const state = mkdtempSync(join(tmpdir(), 'pb-pipeline-kafka-'));
  const env = {
    ...process.env,
    PULSEBOARD_STATE_DIR: state,
    KAFKA_LIB_DIR: join(sharedState, 'kafka', `lib-${version}`),
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_HEAP_OPTS: process.env.BENCH_KAFKA_HEAP ?? '-Xms512m -Xmx512m',
  };
  const script = join(root, 'deploy/kafka.sh');
  await run('bash', [script, 'start'], { env, timeout: 180_000 });
  return {
    brokers: `127.0.0.1:${env.KAFKA_PORT}`,
    pid: () => Number(readFileSync(join(state, 'kafka', 'kafka.pid'), 'utf8').trim()),
    stop: async () => {
      await run('bash', [script, 'stop'], { env, timeout: 60_000 }).catch(() => undefined);
      rmSync(state, { recursive: true, force: true });
    },
  };
}

async function startRedis(): Promise<{ url: string; pid: () => number; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitFor(
    async () => {
      try {
        await run('redis-cli', ['-p', String(port), 'ping']);
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 20_000, what: 'redis to start' },
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: () => child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}

export async function startInfra(root: string, postgresSettings: string): Promise<Infra> {
  const [postgres, kafka, redis] = await Promise.all([startPostgres(postgresSettings), startKafka(root), startRedis()]);
  return {
    databaseUrl: postgres.url,
    brokers: kafka.brokers,
    redisUrl: redis.url,
    pids: () => ({ postgres: postgres.pid(), kafka: kafka.pid(), redis: redis.pid() }),
    stop: async () => {
      await Promise.all([postgres.stop(), kafka.stop(), redis.stop()]);
    },
  };
}

/** A checkout's Postgres settings for this workload, if it declares any. */
export function postgresSettingsOf(checkout: string): string {
  const file = join(checkout, 'deploy/postgres/pulseboard.conf');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
