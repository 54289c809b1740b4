/**
 * The five services of a checkout (this one, or another: a git worktree of an
 * older commit for a before/after series), each in its own process from its
 * sources, on the run's private infrastructure.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@pulseboard/test-kit';
import type { Infra } from './infra.ts';

const run = promisify(execFile);
const SOURCE = ['-C', '@pulseboard/source', '--import', 'tsx'];
export const SERVICES = ['gateway', 'store', 'rule-engine', 'broadcast', 'notification'] as const;
export type Service = (typeof SERVICES)[number];

export interface Stack {
  gateway: string;
  broadcast: string;
  adminToken: string;
  pids(): Record<Service, number>;
  stop(): Promise<void>;
}

export async function migrate(checkout: string, databaseUrl: string): Promise<void> {
  await run(process.execPath, [...SOURCE, 'packages/db/src/migrate-cli.ts'], { cwd: checkout, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

function spawnOne(checkout: string, service: Service, env: Record<string, string>, nodeArgs: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, ...SOURCE, join('services', service, 'src/main.ts')], { cwd: checkout, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  let started = false;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line === '') continue;
      if (logs.push(line) > 200) logs.shift();
      if (line.includes(`"event":"${service.replaceAll('-', '_')}_started"`)) started = true;
      // Errors during the run are worth seeing; info lines are not.
      else if (started && /"level":(50|60)/.test(line)) console.error(`[${service}] ${line.slice(0, 400)}`);
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return waitFor(() => started || (child.exitCode !== null ? Promise.reject(new Error(`${service} exited ${child.exitCode}:\n${logs.slice(-30).join('\n')}`)) : false), {
    timeoutMs: 120_000,
    what: `${service} to start`,
  }).then(() => child);
}

export async function startStack(checkout: string, infra: Infra, options: { profileDir?: string; env?: Record<string, string> } = {}): Promise<Stack> {
  const gatewayPort = await freePort();
  const broadcastPort = await freePort();
  const adminToken = randomBytes(24).toString('hex');
  const env: Record<string, string> = {
    LOG_LEVEL: 'info',
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.brokers,
    ADMIN_TOKEN: adminToken,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    MIGRATE_ON_START: 'false',
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_HOST: '127.0.0.1',
    BROADCAST_PORT: String(broadcastPort),
    BROADCAST_HOST: '127.0.0.1',
    STORE_HTTP_PORT: '0',
    RULE_ENGINE_HTTP_PORT: '0',
    NOTIFICATION_HTTP_PORT: '0',
    NOTIFY_ALLOW_LOOPBACK: 'true',
    GLOBAL_HOURLY_LIMIT: '1000000000',
    DEFAULT_ACCOUNT_HOURLY_LIMIT: '1000000000',
    DEFAULT_PROJECT_HOURLY_LIMIT: '1000000000',
    DEFAULT_BURST_LIMIT: '1000000000',
    DEFAULT_MONTHLY_QUOTA: '1000000000',
    ...options.env,
  };
  const children = new Map<Service, ChildProcess>();
  // Start order as deploy/services.txt: the gateway creates the topics the others read.
  for (const service of SERVICES) {
    const nodeArgs = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(options.profileDir, service)] : [];
    children.set(service, await spawnOne(checkout, service, env, nodeArgs));
  }
  return {
    gateway: `http://127.0.0.1:${gatewayPort}`,
    broadcast: `ws://127.0.0.1:${broadcastPort}`,
    adminToken,
    pids: () => Object.fromEntries(SERVICES.map((s) => [s, children.get(s)!.pid!])) as Record<Service, number>,
    stop: async () => {
      await Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
              child.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
