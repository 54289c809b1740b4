import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, SOURCE_NODE_ARGS, TEST_ADMIN_TOKEN, uniqueName } from '@pulseboard/test-kit';
import { DEMO_LIMITS } from '../../deploy/demo-schedule.ts';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function seed(url: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', url, TEST_ADMIN_TOKEN, ...args],
      { cwd: root, env: { PATH: process.env.PATH, ...env }, timeout: 30000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

const printed = (stdout: string, name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(stdout)?.[1];

describe('deploy/seed-demo.ts against a real gateway', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const names = { DEMO_ACCOUNT_NAME: uniqueName('Demo'), DEMO_USER_EMAIL: `${uniqueName('demo')}@example.test`, DEMO_PROJECT_KEY: uniqueName('demo') };
  const dir = mkdtempSync(join(tmpdir(), 'pb-seed-'));

  beforeAll(async () => {
    pipeline = await startPipeline();
  });
  afterAll(async () => {
    await pipeline?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the user token and API key in its credentials file and reuses them on a re-run; --rotate replaces both on purpose; the demo project gets its limits', async () => {
    const mine = { DEMO_ACCOUNT_NAME: uniqueName('Demo'), DEMO_USER_EMAIL: `${uniqueName('demo')}@example.test`, DEMO_PROJECT_KEY: uniqueName('demo') };
    const credentials = join(dir, 'demo-credentials.json');
    const first = await seed(pipeline.url, mine, ['--credentials', credentials]);
    expect(first.code, first.stderr).toBe(0);
    const token = printed(first.stdout, 'PULSEBOARD_DEMO_USER_TOKEN')!;
    const apiKey = printed(first.stdout, 'PULSEBOARD_DEMO_API_KEY')!;
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toMatchObject({ user_token: token, api_key: apiKey, project_key: mine.DEMO_PROJECT_KEY });
    const project = await request(`${pipeline.url}/api/v1/projects/${mine.DEMO_PROJECT_KEY}`, { token });
    expect(project.body.data).toMatchObject(DEMO_LIMITS);

    // Again, as up.sh does on every run: the same secrets, still working, nothing said about them.
    const second = await seed(pipeline.url, mine, ['--credentials', credentials]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain('note:');
    expect(printed(second.stdout, 'PULSEBOARD_DEMO_USER_TOKEN')).toBe(token);
    expect(printed(second.stdout, 'PULSEBOARD_DEMO_API_KEY')).toBe(apiKey);
    expect((await request(`${pipeline.url}/api/v1/tiles`, { token })).status).toBe(200);
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey, body: envelope(mine.DEMO_PROJECT_KEY) })).status).toBe(201);

    // Limits changed by hand are put back to the demo's.
    expect((await request(`${pipeline.url}/api/v1/projects/${mine.DEMO_PROJECT_KEY}`, { token, method: 'PUT', body: { burst_limit: 5 } })).status).toBe(200);
    const rotated = await seed(pipeline.url, mine, ['--credentials', credentials, '--rotate']);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('a new user token was issued (--rotate)');
    expect(rotated.stdout).toContain("the demo project's API key was regenerated (--rotate)");
    const token2 = printed(rotated.stdout, 'PULSEBOARD_DEMO_USER_TOKEN')!;
    const apiKey2 = printed(rotated.stdout, 'PULSEBOARD_DEMO_API_KEY')!;
    expect([token2, apiKey2]).not.toContain(token);
    expect(apiKey2).not.toBe(apiKey);
    expect((await request(`${pipeline.url}/api/v1/tiles`, { token })).status).toBe(401);
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey, body: envelope(mine.DEMO_PROJECT_KEY) })).status).toBe(401);
    expect((await request(`${pipeline.url}/ingest`, { token: apiKey2, body: envelope(mine.DEMO_PROJECT_KEY) })).status).toBe(201);
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toMatchObject({ user_token: token2, api_key: apiKey2 });
    expect((await request(`${pipeline.url}/api/v1/projects/${mine.DEMO_PROJECT_KEY}`, { token: token2 })).body.data).toMatchObject(DEMO_LIMITS);
  });

  it('seeds account, user, project and tiles, prints working secrets, and on a re-run without kept ones replaces them without duplicating anything', async () => {
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
    expect(tiles.body.data.map((t: { name: string }) => t.name)).toEqual([
      'Deployments',
      'API uptime',
      'CPU usage',
      'Errors, last 5 minutes',
      'GitHub deployments',
      'Alertmanager alerts',
    ]);

    const second = await seed(pipeline.url, names);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('its key was regenerated');
    expect(second.stdout).toContain('a new one was issued');
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
      execFile(
        process.execPath,
        [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', pipeline.url, 'wrong-token'],
        { cwd: root, env: { PATH: process.env.PATH } },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('seed-demo: GET /api/v1/admin/accounts failed: 401 invalid_admin_token');
  });
});
