import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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
      children.map((child) =>
        child.exitCode !== null
          ? undefined
          : new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGKILL');
            }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const node = await startNode(dir);
      ports.push(node.port);
      children.push(node.child);
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    for (const port of ports) {
      await waitFor(async () => (await run('redis-cli', ['-p', String(port), 'cluster', 'info'])).stdout.includes('cluster_state:ok'), {
        timeoutMs: 20_000,
        what: `cluster state ok on ${port}`,
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), ports, stop };
}

/** How many times a node may fail to start (its ports taken in the meantime) before the cluster gives up. */
const NODE_START_ATTEMPTS = 4;

/**
 * One cluster node on ports free a moment ago (freePort: outside the
 * ephemeral range, since CI's run waited its full 10 s on a node that had, by
 * all signs, lost a listen(0) port to another process). Should a port still
 * be taken before redis-server binds it, the node exits and starts again on
 * others.
 */
async function startNode(dir: string): Promise<{ port: number; child: ChildProcess }> {
  let lastOutput = '';
  for (let attempt = 1; attempt <= NODE_START_ATTEMPTS; attempt++) {
    const port = await freePort();
    const busPort = await freePort([port]);
    // A port of its own for the cluster bus: the default (port + 10000) may be taken or out of range.
    const args = [
      '--port',
      String(port),
      '--cluster-port',
      String(busPort),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exited = once(child, 'exit').then(() => 'exited' as const);
    // Ready when the server on the port is this child: a port taken by another
    // redis-server (another test's cluster) would answer PING as well.
    const ready = waitFor(
      async () =>
        exitedYet(child) ||
        (await run('redis-cli', ['-p', String(port), 'info', 'server']).catch(() => ({ stdout: '' }))).stdout.includes(`process_id:${child.pid}\r`),
      { timeoutMs: 15_000, what: `redis-server on ${port}` },
    ).then(() => 'ready' as const);
    const outcome = await Promise.race([ready, exited]).catch((error: unknown) => error as Error);
    if (outcome === 'ready' && !exitedYet(child)) {
      // Its output is no longer needed: stop collecting it, and let the pipes drain.
      child.stdout.off('data', keep).resume();
      child.stderr.off('data', keep).resume();
      return { port, child };
    }
    if (!exitedYet(child)) {
      child.kill('SIGKILL');
      await exited;
    }
    if (outcome instanceof Error) throw new Error(`${outcome.message}; its output:\n${output}`);
    lastOutput = output;
  }
  throw new Error(`redis-server did not start in ${NODE_START_ATTEMPTS} attempts; its last output:\n${lastOutput}`);
}

function exitedYet(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
