import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BIN = 'packages/cli/bin/pulseboard.mjs';
const latency = (warning: number) => ({
  filter: { type: 'metric', name: 'latency' },
  evaluation: { kind: 'threshold', attribute: 'ms', warning, critical: 10_000 },
});
const errors = { filter: { type: 'error' }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 2, critical: 5 } };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `pulseboard tiles verify`: a dry replay of every tile of a project, each that differs printed, exit 1 when any does. */
describe('pulseboard tiles verify against the real stack', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let db: pg.Pool;
  let project: Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;
  let env: Record<string, string | undefined>;

  const cli = (args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      });
    });

  beforeAll(async () => {
    pipeline = await startPipeline();
    db = new pg.Pool({ connectionString: pipeline.env.DATABASE_URL, max: 2 });
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine()]);
    project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    env = { PATH: process.env.PATH, PULSEBOARD_URL: pipeline.url, PULSEBOARD_TOKEN: project.userToken };
  }, 120_000);
  afterAll(async () => {
    await pipeline?.stop();
    await db?.end();
  });

  it('passes while every live state is what the stored events imply, and names the tile whose rule changed', async () => {
    const create = async (name: string, rule: object) =>
      (await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name, kind: 'metric', rule } })).body.data.id as number;
    const latencyTile = await create('Latency', latency(500));
    const errorsTile = await create('Errors', errors);
    const events = [
      { type: 'metric', name: 'latency', attributes: { ms: 300 } },
      { type: 'error', name: 'boom' },
      { type: 'error', name: 'boom' },
    ];
    for (const event of events)
      expect((await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, event) })).status).toBe(201);
    const state = async (tile: number) => (await db.query('SELECT status, value FROM tile_states WHERE tile_id = $1', [tile])).rows[0];
    await waitFor(async () => (await state(latencyTile))?.value === 300 && (await state(errorsTile))?.value === 2, {
      timeoutMs: 20_000,
      what: 'both tiles evaluated',
    });
    await waitFor(
      async () => (await db.query('SELECT count(*)::int AS n FROM events WHERE project_key = $1', [project.projectKey])).rows[0].n === events.length,
      { timeoutMs: 20_000, what: 'every event stored' },
    );

    const clean = await cli(['tiles', 'verify', '--project', project.projectKey]);
    expect(clean, clean.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(clean.stderr).toContain('2 tiles replayed, 0 differ');

    // A lower threshold: the engine starts the tile over, the stored events say warning.
    expect((await request(`${pipeline.url}/api/v1/tiles/${latencyTile}`, { method: 'PUT', token: project.apiKey, body: { rule: latency(200) } })).status).toBe(
      200,
    );
    await waitFor(async () => (await state(latencyTile))?.status === 'unknown', { timeoutMs: 10_000, what: 'the engine adopting the new rule' });
    const differs = await cli(['tiles', 'verify', '--project', project.projectKey]);
    expect(differs.code, differs.stderr).toBe(1);
    expect(
      differs.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        tile_id: latencyTile,
        project_key: project.projectKey,
        name: 'Latency',
        live: { status: 'unknown', value: null },
        replay: { status: 'warning', value: 300 },
        events_replayed: 1,
      },
    ]);
    expect(differs.stderr).toContain('2 tiles replayed, 1 differ');

    // Another project's key: 404 from the API, exit 1.
    const other = await pipeline.provision();
    const foreign = await cli(['tiles', 'verify', '--project', other.projectKey]);
    expect(foreign.code).toBe(1);
  });
});
