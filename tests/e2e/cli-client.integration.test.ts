import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BIN = 'packages/cli/bin/pulseboard.mjs';
const CPU_RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the pulseboard CLI’s client commands (send, tail, events list, tiles) against the real stack', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let env: Record<string, string | undefined>;

  const cli = (args: string[], stdin?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, [BIN, ...args], { cwd: root, env, timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      });
      child.stdin!.end(stdin ?? '');
    });
  const json = (run: Run) => {
    expect(run, run.stderr).toMatchObject({ code: 0 });
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    pipeline = await startPipeline();
    const port = String(await freePort());
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine(), pipeline.startBroadcast({ BROADCAST_PORT: port })]);
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    env = {
      PATH: process.env.PATH,
      PULSEBOARD_URL: pipeline.url,
      PULSEBOARD_TOKEN: project.apiKey,
      PULSEBOARD_BROADCAST_URL: `ws://127.0.0.1:${port}/ws`,
      PROJECT: project.projectKey,
    };
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('creates, lists and deletes a tile; sends from arguments and NDJSON; lists events by filter; tails live changes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pb-cli-')), 'tile.json');
    writeFileSync(file, JSON.stringify({ name: 'CPU', kind: 'metric', rule: CPU_RULE }));
    const tile = json(await cli(['tiles', 'create', '--file', file])).data;
    expect(tile).toMatchObject({ id: expect.any(Number), name: 'CPU' });
    expect(json(await cli(['tiles', 'list'])).data.map((t: { id: number }) => t.id)).toEqual([tile.id]);

    // tail: the snapshot first (stdout), "subscribed" on stderr, then exits after one change.
    const tail = spawn(process.execPath, [BIN, 'tail', env.PROJECT!, '--count', '1'], { cwd: root, env });
    let tailOut = '';
    let tailErr = '';
    tail.stdout.on('data', (d: Buffer) => (tailOut += d.toString()));
    tail.stderr.on('data', (d: Buffer) => (tailErr += d.toString()));
    const tailExit = new Promise<number | null>((resolve) => tail.on('exit', resolve));
    await waitFor(() => tailErr.includes('subscribed to'), { timeoutMs: 30_000, what: 'tail to subscribe' });

    expect(json(await cli(['send', '--type', 'metric', '--name', 'cpu', '--attr', 'value=97', '--label', 'cli']))).toEqual({ sent: 1, failed: 0, retries: 0 });
    expect(await tailExit).toBe(0);
    const lines = tailOut
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'snapshot', tiles: [{ tile_id: tile.id, status: 'unknown' }] });
    expect(lines[1]).toMatchObject({ tile_id: tile.id, status: 'critical', value: 97, version: 1 });

    const ndjson = ['deploy_started', 'deploy_finished', 'deploy_failed']
      .map((name) => JSON.stringify({ type: 'deployment', name, attributes: { app: 'web' } }))
      .join('\n');
    expect(json(await cli(['send'], `${ndjson}\n`))).toEqual({ sent: 3, failed: 0, retries: 0 });

    const list = async (...args: string[]) => json(await cli(['events', 'list', ...args]));
    const deployments = await waitFor(
      async () => {
        const page = await list('--type', 'deployment');
        return page.data.length === 3 ? page : undefined;
      },
      { timeoutMs: 30_000, what: 'three deployments stored' },
    );
    expect(deployments.data.map((e: { name: string }) => e.name).sort()).toEqual(['deploy_failed', 'deploy_finished', 'deploy_started']);
    expect((await list('--label', 'cli')).data).toMatchObject([{ name: 'cpu', attributes: { value: 97 } }]);
    expect((await list('--name', 'deploy_failed', '--per-page', '1')).data).toHaveLength(1);

    // Errors: the API's code and details on stderr, exit 1.
    const bad = await cli(['send'], '{"type":"bogus","name":"x","attributes":{}}\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('validation_error');
    expect(bad.stderr).toContain('events[0].type');
    const filter = await cli(['events', 'list', '--severity', 'loud']);
    expect(filter.code).toBe(1);
    expect(filter.stderr).toContain('400 validation_error');

    expect(json(await cli(['tiles', 'delete', String(tile.id)]))).toEqual({ deleted: true, id: tile.id });
    expect(json(await cli(['tiles', 'list'])).data).toEqual([]);
  }, 120_000);
});
