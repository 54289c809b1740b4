import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, TEST_ADMIN_TOKEN, uniqueName } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BIN = 'packages/cli/bin/pulseboard.mjs';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the workspace's `pulseboard` bin as an operator would, against a real gateway process. */
function pulseboard(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env: { PATH: process.env.PATH, ...env }, timeout: 30000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe('the pulseboard CLI against a real gateway', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let env: Record<string, string>;
  const cli = (...args: string[]) => pulseboard(args, env);
  const json = (run: Run) => {
    expect(run, run.stderr).toMatchObject({ code: 0 });
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    pipeline = await startPipeline();
    env = { PULSEBOARD_URL: pipeline.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('bootstraps an account, user and project, and the printed secrets work', async () => {
    const name = uniqueName('cli');
    const account = json(await cli('admin', 'account', 'create', '--name', name));
    expect(account).toMatchObject({ id: expect.any(Number), name });
    const email = `${name}@example.test`;
    const user = json(await cli('admin', 'user', 'create', '--account', String(account.id), '--email', email));
    expect(user).toMatchObject({ email, token: expect.stringMatching(/^evu_/) });
    const key = uniqueName('cli');
    const project = json(
      await cli(
        'admin',
        'project',
        'create',
        '--account',
        String(account.id),
        '--key',
        key,
        '--name',
        'From the CLI',
        '--monthly-quota',
        '500',
        '--burst-limit',
        '20',
      ),
    );
    expect(project).toMatchObject({ project_key: key, name: 'From the CLI', monthly_quota: 500, burst_limit: 20, api_key: expect.stringMatching(/^evk_/) });

    const ingest = await request(`${pipeline.url}/ingest`, { token: project.api_key, body: envelope(key) });
    expect(ingest.status).toBe(201);
    expect(ingest.body).toMatchObject({ quota_limit: 500, rate_limit_remaining: 19 });
    expect((await request(`${pipeline.url}/api/v1/projects/${key}`, { token: user.token })).status).toBe(200);

    expect(json(await cli('admin', 'account', 'list')).data).toContainEqual(expect.objectContaining({ id: account.id, name }));
    expect(json(await cli('admin', 'project', 'list', '--account', String(account.id))).data.map((p: { project_key: string }) => p.project_key)).toEqual([key]);
    expect(json(await cli('admin', 'user', 'list', '--account', String(account.id))).data).toEqual([expect.objectContaining({ id: user.id, email })]);

    const token = json(await cli('admin', 'user', 'token', '--user', String(user.id)));
    expect(token.token).not.toBe(user.token);
    expect((await request(`${pipeline.url}/api/v1/projects`, { token: user.token })).status).toBe(401);
    expect((await request(`${pipeline.url}/api/v1/projects`, { token: token.token })).status).toBe(200);

    expect(json(await cli('admin', 'project', 'delete', '--key', key))).toEqual({ deleted: true, project_key: key });
    expect((await request(`${pipeline.url}/ingest`, { token: project.api_key, body: envelope(key) })).status).toBe(404);
    expect(json(await cli('admin', 'user', 'delete', '--user', String(user.id)))).toEqual({ deleted: true, id: user.id });
  });

  it('takes the URL and token as flags too', async () => {
    const run = await pulseboard(['--url', pipeline.url, '--admin-token', TEST_ADMIN_TOKEN, 'admin', 'account', 'list'], {});
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).data).toEqual(expect.any(Array));
  });

  it('exits non-zero with the API error on stderr and nothing on stdout', async () => {
    const account = json(await cli('admin', 'account', 'create', '--name', uniqueName('cli')));
    const key = uniqueName('dup');
    json(await cli('admin', 'project', 'create', '--account', String(account.id), '--key', key, '--name', 'x'));
    const duplicate = await cli('admin', 'project', 'create', '--account', String(account.id), '--key', key, '--name', 'x');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toBe('');
    expect(duplicate.stderr).toContain('400 validation_error');
    expect(duplicate.stderr).toContain('has already been taken');

    const missing = await cli('admin', 'project', 'list', '--account', '999999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 not_found');

    const wrongToken = await pulseboard(['admin', 'account', 'list'], { ...env, ADMIN_TOKEN: 'wrong' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('401 invalid_admin_token');

    const noToken = await pulseboard(['admin', 'account', 'list'], { PULSEBOARD_URL: pipeline.url });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('no admin token');

    const unreachable = await pulseboard(['admin', 'account', 'list'], { PULSEBOARD_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9');

    const usage = await cli('admin', 'project', 'create', '--account', 'abc', '--key', 'x', '--name', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("'--account <id>' argument 'abc' is invalid");
    const missingOption = await cli('admin', 'project', 'create', '--account', '1');
    expect(missingOption.code).toBe(2);
    expect(missingOption.stderr).toContain("required option '--key <project_key>' not specified");
  });
});
