import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, SOURCE_NODE_ARGS, TEST_ADMIN_TOKEN, uniqueName } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function seed(url: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // As deploy/up.sh calls it: URL and admin token as arguments.
    execFile(process.execPath, [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', url, TEST_ADMIN_TOKEN], { cwd: root, env: { PATH: process.env.PATH, ...env }, timeout: 30000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

const printed = (stdout: string, name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(stdout)?.[1];

describe('deploy/seed-demo.ts against a real gateway', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const names = { DEMO_ACCOUNT_NAME: uniqueName('Demo'), DEMO_USER_EMAIL: `${uniqueName('demo')}@example.test`, DEMO_PROJECT_KEY: uniqueName('demo') };

  beforeAll(async () => {
    pipeline = await startPipeline();
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('seeds account, user, project and tiles, prints working secrets, and on a re-run replaces them without duplicating anything', async () => {
    const first = await seed(pipeline.url, names);
    expect(first.code, first.stderr).toBe(0);
    const token = printed(first.stdout, 'PULSEBOARD_DEMO_USER_TOKEN')!;
    const apiKey = printed(first.stdout, 'PULSEBOARD_DEMO_API_KEY')!;
    expect(token).toMatch(/^evu_/);
    expect(apiKey).toMatch(/^evk_/);
    expect(printed(first.stdout, 'PULSEBOARD_DEMO_PROJECT_KEY')).toBe(names.DEMO_PROJECT_KEY);
    expect(first.stdout).not.toContain('note:');
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey, body: envelope(names.DEMO_PROJECT_KEY) })).status).toBe(201);
    const tiles = await request(`${pipeline.url}/api/v1/tiles`, { token: token });
    expect(tiles.body.data.map((t: { name: string }) => t.name)).toEqual(['Deployments', 'API uptime', 'CPU usage', 'Errors, last 5 minutes', 'GitHub deployments', 'Alertmanager alerts']);

    const second = await seed(pipeline.url, names);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('its API key was regenerated');
    expect(second.stdout).toContain('a new token was issued');
    const token2 = printed(second.stdout, 'PULSEBOARD_DEMO_USER_TOKEN')!;
    const apiKey2 = printed(second.stdout, 'PULSEBOARD_DEMO_API_KEY')!;
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey, body: envelope(names.DEMO_PROJECT_KEY) })).status).toBe(401);
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey2, body: envelope(names.DEMO_PROJECT_KEY) })).status).toBe(201);
    expect((await request(`${pipeline.url}/api/v1/tiles`, { token })).status).toBe(401);
    const after = await request(`${pipeline.url}/api/v1/tiles`, { token: token2 });
    expect(after.body.meta.total_count).toBe(6);
    const accounts = await request(`${pipeline.url}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN });
    expect(accounts.body.data.filter((a: { name: string }) => a.name === names.DEMO_ACCOUNT_NAME)).toHaveLength(1);
  });

  it('fails with a clear message and a non-zero exit when the admin token is wrong', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', pipeline.url, 'wrong-token'], { cwd: root, env: { PATH: process.env.PATH } }, (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), stderr }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('seed-demo: GET /api/v1/admin/accounts failed: 401 invalid_admin_token');
  });
});
