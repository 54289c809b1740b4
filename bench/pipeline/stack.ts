/**
 * The five services of a checkout (this one, or another: a git worktree of an
 * older commit for a before/after series), each in its own process from its
 * sources, on the run's private infrastructure; one instance of each unless
 * `instances` asks for more (bench:scale-out): each instance has its own
 * Kafka client id (`bench-<service>-<n>`, how the lag is told apart per
 * instance) and each gateway its own port.
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
  /** Every gateway instance's base URL (the first is `gateway`). */
  gateways: string[];
  broadcast: string;
  adminToken: string;
  /** The first instance of each service. */
  pids(): Record<Service, number>;
  /** `<service>-<n>` → pid, every instance. */
  instancePids(): Record<string, number>;
  stop(): Promise<void>;
}

export async function migrate(checkout: string, databaseUrl: string): Promise<void> {
  await run(process.execPath, [...SOURCE, 'packages/db/src/migrate-cli.ts'], { cwd: checkout, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

function spawnOne(checkout: string, service: Service, env: Record<string, string>, nodeArgs: string[], label: string = service): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, ...SOURCE, join('services', service, 'src/main.ts')], {
    cwd: checkout,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let started = false;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line === '') continue;
      if (logs.push(line) > 200) logs.shift();
      if (line.includes(`"event":"${service.replaceAll('-', '_')}_started"`)) started = true;
      // Errors during the run are worth seeing; info lines are not.
      // (kafkajs logs a heartbeat answered "rebalancing" as an error: expected whenever an instance joins.)
      else if (started && /"level":(50|60)/.test(line) && !line.includes('The group is rebalancing')) console.error(`[${label}] ${line.slice(0, 400)}`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return waitFor(
    () => started || (child.exitCode !== null ? Promise.reject(new Error(`${service} exited ${child.exitCode}:\n${logs.slice(-30).join('\n')}`)) : false),
    {
      timeoutMs: 120_000,
      what: `${label} to start`,
    },
  ).then(() => child);
}

export async function startStack(
  checkout: string,
  infra: Infra,
  options: { profileDir?: string; env?: Record<string, string>; instances?: Partial<Record<Service, number>>; receiver?: string } = {},
): Promise<Stack> {
  const gatewayPorts: number[] = [];
  for (let i = 0; i < (options.instances?.gateway ?? 1); i++) gatewayPorts.push(await freePort());
  const gatewayPort = gatewayPorts[0]!;
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
    // The observer's receiver is local: its exact address and port (options.receiver), the only loopback target
    // allowed. An older checkout compared against still reads NOTIFY_ALLOW_LOOPBACK.
    ...(options.receiver === undefined ? {} : { NOTIFY_ALLOW_TARGETS: options.receiver, NOTIFY_ALLOW_LOOPBACK: 'true' }),
    GLOBAL_HOURLY_LIMIT: '1000000000',
    DEFAULT_ACCOUNT_HOURLY_LIMIT: '1000000000',
    DEFAULT_PROJECT_HOURLY_LIMIT: '1000000000',
    DEFAULT_BURST_LIMIT: '1000000000',
    DEFAULT_MONTHLY_QUOTA: '1000000000',
    ...options.env,
  };
  const children = new Map<string, ChildProcess>();
  const first = new Map<Service, ChildProcess>();
  // Start order as deploy/services.txt: the gateway creates the topics the others read. A service's
  // first instance starts alone (it creates what its later instances find), the rest together.
  for (const service of SERVICES) {
    const count = options.instances?.[service] ?? 1;
    const one = async (i: number) => {
      const label = count === 1 ? service : `${service}-${i + 1}`;
      const nodeArgs = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(options.profileDir, label)] : [];
      const own = count === 1 ? {} : { KAFKA_CLIENT_ID: `bench-${label}`, ...(service === 'gateway' ? { GATEWAY_PORT: String(gatewayPorts[i]) } : {}) };
      const child = await spawnOne(checkout, service, { ...env, ...own }, nodeArgs, label);
      children.set(label, child);
      if (i === 0) first.set(service, child);
    };
    await one(0);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => one(i + 1)));
  }
  return {
    gateway: `http://127.0.0.1:${gatewayPort}`,
    gateways: gatewayPorts.map((port) => `http://127.0.0.1:${port}`),
    broadcast: `ws://127.0.0.1:${broadcastPort}`,
    adminToken,
    pids: () => Object.fromEntries(SERVICES.map((s) => [s, first.get(s)!.pid!])) as Record<Service, number>,
    instancePids: () => Object.fromEntries([...children].map(([label, child]) => [label, child.pid!])),
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
