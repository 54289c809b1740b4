import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, SOURCE_NODE_ARGS, TEST_ADMIN_TOKEN, uniqueName, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * deploy/demo-traffic.ts, as deploy/up.sh starts it after deploy/seed-demo.ts:
 * every demo tile leaves `unknown`, through the real gateway and rule engine.
 * At tempo 20 (twenty demo seconds a second) the CPU tile also moves on.
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

  it('moves every demo tile out of unknown, and stops on SIGTERM', async () => {
    const seeded = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [...SOURCE_NODE_ARGS, 'deploy/seed-demo.ts', pipeline.url, TEST_ADMIN_TOKEN], { cwd: root, env: { PATH: process.env.PATH, ...names }, timeout: 30000 }, (error, stdout, stderr) =>
        error === null ? resolve(stdout) : reject(new Error(stderr)),
      ),
    );
    const printed = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(seeded)![1]!;
    const token = printed('PULSEBOARD_DEMO_USER_TOKEN');
    const generator = spawn(process.execPath, [...SOURCE_NODE_ARGS, 'deploy/demo-traffic.ts', pipeline.url, '--tempo', '20', '--duration', '60'], {
      cwd: root,
      env: { PATH: process.env.PATH, PULSEBOARD_DEMO_API_KEY: printed('PULSEBOARD_DEMO_API_KEY'), PULSEBOARD_DEMO_PROJECT_KEY: names.DEMO_PROJECT_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    generator.stdout.on('data', (chunk) => (output += chunk));
    generator.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => generator.on('exit', resolve));
    try {
      const tiles = (await request(`${pipeline.url}/api/v1/tiles?project_key=${names.DEMO_PROJECT_KEY}`, { token })).body.data as { id: number; name: string }[];
      expect(tiles.length).toBe(6);
      const states = async () => Promise.all(tiles.map(async (t) => ({ name: t.name, ...(await request(`${pipeline.url}/api/v1/tiles/${t.id}/state`, { token })).body.data })));
      await waitFor(async () => (await states()).every((s) => s.status !== 'unknown' && s.version >= 1), { timeoutMs: 30_000, what: `every demo tile changed (${output})` });
      const cpu = tiles.find((t) => t.name === 'CPU usage')!;
      await waitFor(async () => (await request(`${pipeline.url}/api/v1/tiles/${cpu.id}/state`, { token })).body.data.version >= 3, { timeoutMs: 30_000, what: 'the CPU tile changing again' });
    } finally {
      generator.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toMatch(/demo-traffic: stopped after \d+ events sent, 0 not accepted/);
  });
});
