import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.ts';
import { waitFor } from './wait-for.ts';
import { startRedisClusterContainers, usesContainers } from './containers.ts';

const run = promisify(execFile);

/**
 * A private Redis Cluster of three masters, from the machine's own redis-server
 * (own ports, cluster bus ports and directory, nothing persisted; containers of
 * the Redis image with TEST_INFRA=containers), for what must
 * also work on Redis Cluster. `nodes` is in the form REDIS_CLUSTER_NODES takes.
 */
export async function startRedisCluster(): Promise<{ nodes: string; ports: number[]; stop(): Promise<void> }> {
  if (usesContainers()) return startRedisClusterContainers();
  const dir = mkdtempSync(join(tmpdir(), 'pb-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map((child) => (child.exitCode !== null ? undefined : new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      }))),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const busPort = await freePort();
      ports.push(port);
      // A port of its own for the cluster bus: the default (port + 10000) may be taken or out of range.
      const args = ['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
        '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir, '--save', '', '--appendonly', 'no'];
      children.push(spawn('redis-server', args, { stdio: 'ignore' }));
    }
    for (const port of ports) {
      await waitFor(async () => (await run('redis-cli', ['-p', String(port), 'ping']).catch(() => ({ stdout: '' }))).stdout.trim() === 'PONG', { timeoutMs: 10_000, what: `redis-server on ${port}` });
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    for (const port of ports) {
      await waitFor(async () => (await run('redis-cli', ['-p', String(port), 'cluster', 'info'])).stdout.includes('cluster_state:ok'), { timeoutMs: 20_000, what: `cluster state ok on ${port}` });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), ports, stop };
}
