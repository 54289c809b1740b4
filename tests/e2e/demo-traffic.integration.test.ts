import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, SOURCE_NODE_ARGS, TEST_ADMIN_TOKEN, uniqueName, waitFor } from '@pulseboard/test-kit';
import { demoSchedule } from '../../deploy/demo-schedule.ts';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Demo seconds per real second: an hour of the schedule in a minute. */
const TEMPO = 60;
const HOUR = 3600;

/**
 * deploy/demo-traffic.ts, as deploy/up.sh starts it after deploy/seed-demo.ts:
 * every demo tile leaves `unknown`, through the real gateway and rule engine,
 * and an hour of its schedule is sent without one refusal. At tempo 60 a real
 * minute holds an hour of demo minutes, so the test gives the project the
 * limits seed-demo.ts set, times 60: the same check as an hour at tempo 1
 * against the limits themselves (packages/rules/src/demo-schedule.test.ts
 * counts every minute of the schedule against them exactly).
 */
describe('demo traffic generator', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const names = { DEMO_ACCOUNT_NAME: uniqueName('Demo'), DEMO_USER_EMAIL: `${uniqueName('demo')}@example.test`, DEMO_PROJECT_KEY: uniqueName('demo') };

  beforeAll(async () => {
    pipeline = await startPipeline();
    await pipeline.startRuleEngine();
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('moves every demo tile out of unknown, and sends an hour of its schedule with no refusal', async () => {
    const seeded = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', pipeline.url, TEST_ADMIN_TOKEN],
        { cwd: root, env: { PATH: process.env.PATH, ...names }, timeout: 30000 },
        (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))),
      ),
    );
    const printed = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(seeded)![1]!;
    const token = printed('PULSEBOARD_DEMO_USER_TOKEN');
    const project = `${pipeline.url}/api/v1/projects/${names.DEMO_PROJECT_KEY}`;
    const { data: seededProject } = (await request(project, { token })).body;
    const accounts = (await request(`${pipeline.url}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN })).body.data as { id: number; name: string }[];
    const account = accounts.find((a) => a.name === names.DEMO_ACCOUNT_NAME)!;
    expect(
      (
        await request(`${pipeline.url}/api/v1/admin/accounts/${account.id}`, {
          token: TEST_ADMIN_TOKEN,
          method: 'PUT',
          body: { max_burst_limit: 100_000_000, max_hourly_request_limit: 100_000_000 },
        })
      ).status,
    ).toBe(200);
    const scaled = { burst_limit: seededProject.burst_limit * TEMPO, hourly_request_limit: seededProject.hourly_request_limit * TEMPO };
    expect((await request(project, { token, method: 'PUT', body: scaled })).status).toBe(200);

    const generator = spawn(
      process.execPath,
      [...SOURCE_NODE_ARGS, 'deploy/demo-traffic.ts', pipeline.url, '--tempo', String(TEMPO), '--demo-seconds', String(HOUR)],
      {
        cwd: root,
        env: { PATH: process.env.PATH, PULSEBOARD_DEMO_API_KEY: printed('PULSEBOARD_DEMO_API_KEY'), PULSEBOARD_DEMO_PROJECT_KEY: names.DEMO_PROJECT_KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    generator.stdout.on('data', (chunk) => (output += chunk));
    generator.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => generator.on('exit', resolve));
    try {
      const tiles = (await request(`${pipeline.url}/api/v1/tiles?project_key=${names.DEMO_PROJECT_KEY}`, { token })).body.data as {
        id: number;
        name: string;
      }[];
      expect(tiles.length).toBe(6);
      const states = async () =>
        Promise.all(tiles.map(async (t) => ({ name: t.name, ...(await request(`${pipeline.url}/api/v1/tiles/${t.id}/state`, { token })).body.data })));
      await waitFor(async () => (await states()).every((s) => s.status !== 'unknown' && s.version >= 1), {
        timeoutMs: 30_000,
        what: `every demo tile changed (${output})`,
      });
      const cpu = tiles.find((t) => t.name === 'CPU usage')!;
      await waitFor(async () => (await request(`${pipeline.url}/api/v1/tiles/${cpu.id}/state`, { token })).body.data.version >= 3, {
        timeoutMs: 30_000,
        what: 'the CPU tile changing again',
      });
      // A busy machine may fall behind the tempo: the hour is sent whatever it takes.
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 240_000))])).toBe(0);
    } finally {
      generator.kill('SIGTERM');
    }
    // Every event of the hour, in batches, and not one request refused.
    const schedule = demoSchedule();
    let events = 0;
    for (let s = 0; s < HOUR; s++) events += schedule(s).length;
    expect(output).toContain(`demo-traffic: stopped after ${events} events sent, 0 not accepted, 0 requests refused`);
    expect((await request(`${project}/refusals`, { token })).body.data).toMatchObject({ count: 0, last: null });
  }, 360_000);
});
