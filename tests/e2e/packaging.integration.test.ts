import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CPU_RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number; stdin?: string },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
    child.stdin!.end(options.stdin ?? '');
  });
}
const ok = (r: Run, what: string): Run => {
  expect(r, `${what}\n${r.stderr}`).toMatchObject({ code: 0 });
  return r;
};

/** The SDK as an app outside the workspace uses it: plain ESM importing the installed package. */
const SDK_SCRIPT = `
import { PulseboardClient } from '@pulseboard/client';
const [mode, run] = process.argv.slice(2);
const client = new PulseboardClient({ url: process.env.PULSEBOARD_URL, apiKey: process.env.PULSEBOARD_TOKEN, retry: { maxElapsedMs: 2000 } });
const out = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
if (mode === 'send') {
  await client.send({ type: 'deployment', name: 'sdk_single', attributes: { run } });
  for (let i = 0; i < 150; i++) await client.send({ type: 'metric', name: 'sdk_batch', attributes: { i, run } });
  out(await client.shutdown());
} else if (mode === 'refused') {
  // No listener and no hook: the default logger reports it on stderr.
  await client.send({ type: 'bogus', name: 'sdk_refused', attributes: {} });
  out(await client.close());
} else if (mode === 'read') {
  const page = await client.events.list({ name: 'sdk_batch', per_page: 100 });
  const single = await client.events.list({ name: 'sdk_single' });
  const one = await client.events.get(single.data[0].event_ref);
  out({ batch_total: page.meta.total_count, batch_page: page.data.length, single: one.data });
}
`;

/** The package's types as a TypeScript app outside the workspace sees them (the `types` exports). */
const TYPES_CHECK = `
import { PulseboardClient, PulseboardApiError, type FlushResult, type SendFailure, type IngestedEvent } from '@pulseboard/client';
import { AdminClient } from '@pulseboard/cli';
const client = new PulseboardClient({ url: 'http://127.0.0.1:8080', apiKey: 'evk_x' });
client.on('error', (failure: SendFailure) => console.error(failure.code, failure.status, failure.events.length));
const result: Promise<FlushResult> = client.shutdown();
void result.then((r) => r.failures.map((f) => f.code));
const page = client.events.list({ type: 'error', per_page: 10 });
void page.then((p) => p.data.map((e) => e.name));
client.subscribe('web', { url: 'ws://127.0.0.1:8081/ws', events: { type: 'error' }, onEvent: (e: IngestedEvent) => e.id });
void new AdminClient({ url: 'http://127.0.0.1:8080', adminToken: 't' });
void (PulseboardApiError.prototype.status satisfies number);
// @ts-expect-error a refused event type is a type error, not only a 400
void client.send({ type: 'bogus', name: 'x' });
`;

describe('@pulseboard/client and @pulseboard/cli packed, installed with npm outside the workspace, against a running stack', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let app: string;
  let env: Record<string, string | undefined>;
  let project: string;
  const tarballs: Record<string, number> = {};
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // The app's directory: empty, under the system's temp dir, so nothing of the workspace resolves from it.
    app = realpathSync(mkdtempSync(join(tmpdir(), 'pb-packaging-')));
    expect(app.startsWith(realpathSync(root))).toBe(false);
    const packs = join(app, 'tarballs');
    const startStack = (async () => {
      pipeline = await startPipeline();
      const port = String(await freePort());
      await Promise.all([pipeline.startStore(), pipeline.startRuleEngine(), pipeline.startBroadcast({ BROADCAST_PORT: port })]);
      const provisioned = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
      project = provisioned.projectKey;
      env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PULSEBOARD_URL: pipeline.url,
        PULSEBOARD_TOKEN: provisioned.apiKey,
        PULSEBOARD_BROADCAST_URL: `ws://127.0.0.1:${port}/ws`,
      };
    })();
    // pnpm pack runs each package's prepack (its build) and rewrites workspace:^ to the version.
    for (const dir of ['packages/client', 'packages/cli']) {
      ok(
        await run('bash', ['-c', `source deploy/lib.sh && cd ${dir} && pnpm pack --pack-destination "$1"`, 'pack', packs], { cwd: root, timeoutMs: 180_000 }),
        `pnpm pack ${dir}`,
      );
    }
    for (const file of readdirSync(packs)) tarballs[file] = statSync(join(packs, file)).size;
    expect(Object.keys(tarballs).sort()).toEqual(['pulseboard-cli-0.1.0.tgz', 'pulseboard-client-0.1.0.tgz']);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pb-packaging-app', private: true, type: 'module' }));
    // Both tarballs at once: the CLI's dependency on @pulseboard/client ^0.1.0 is met by the client's; commander and ws come from the registry.
    ok(
      await run(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          join(packs, 'pulseboard-client-0.1.0.tgz'),
          join(packs, 'pulseboard-cli-0.1.0.tgz'),
        ],
        { cwd: app, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeoutMs: 300_000 },
      ),
      'npm install',
    );
    writeFileSync(join(app, 'sdk.mjs'), SDK_SCRIPT);
    await startStack;
  }, 600_000);

  afterAll(async () => {
    for (const child of children) child.kill();
    await pipeline?.stop();
    console.log(
      `packed: ${Object.entries(tarballs)
        .map(([file, size]) => `${file} ${size} bytes`)
        .join(', ')}`,
    );
    if (app !== undefined) rmSync(app, { recursive: true, force: true });
  });

  const bin = () => join(app, 'node_modules', '.bin', 'pulseboard');
  const cli = (args: string[], stdin?: string) => run(bin(), args, { cwd: app, env, timeoutMs: 30_000, ...(stdin === undefined ? {} : { stdin }) });
  const json = (r: Run) => JSON.parse(ok(r, 'cli').stdout);
  const sdk = (...args: string[]) => run(process.execPath, ['sdk.mjs', ...args], { cwd: app, env, timeoutMs: 60_000 });

  it('installs compiled JavaScript only: no TypeScript sources, no tsx; types resolve for a TypeScript app', async () => {
    const installed = (pkg: string) => readdirSync(join(app, 'node_modules', '@pulseboard', pkg), { recursive: true }).map(String);
    for (const pkg of ['client', 'cli']) {
      const files = installed(pkg);
      expect(files).toContain('LICENSE');
      expect(files).toContain('README.md');
      expect(files).toContain(join('dist', 'index.d.ts'));
      expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    }
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('tsx');
    ok(await run(bin(), ['--version'], { cwd: app, env }), '--version');
    expect((await run(bin(), ['--version'], { cwd: app, env })).stdout.trim()).toBe('0.1.0');

    writeFileSync(join(app, 'check.ts'), TYPES_CHECK);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: [],
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['check.ts'],
      }),
    );
    ok(
      await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app, timeoutMs: 120_000 }),
      'tsc on the installed types',
    );
  }, 180_000);

  it('sends one event and a batch with the SDK, reads them back, and reports a refused event without being asked', async () => {
    const runId = `r${Date.now()}`;
    const sent = ok(await sdk('send', runId), 'sdk send');
    expect(JSON.parse(sent.stdout)).toMatchObject({ sent: 151, failed: 0, dropped: 0, failures: [] });
    expect(sent.stderr).toBe('');

    let last: Run | undefined;
    const read = await waitFor(
      async () => {
        const r = (last = await sdk('read'));
        if (r.code !== 0) return undefined;
        const body = JSON.parse(r.stdout) as { batch_total: number; batch_page: number; single: { name: string; attributes: { run: string } } };
        return body.batch_total === 150 ? body : undefined;
      },
      { timeoutMs: 60_000, what: 'the batch stored and readable' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the last read: ${JSON.stringify(last)}`);
    });
    expect(read).toMatchObject({ batch_total: 150, batch_page: 100, single: { name: 'sdk_single', attributes: { run: runId } } });

    const refused = await sdk('refused');
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/^\[pulseboard\] 1 event not stored \(refused\): 400 validation_error: /);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      sent: 0,
      failed: 1,
      failures: [{ reason: 'refused', status: 400, code: 'validation_error', event: { name: 'sdk_refused' } }],
    });
  }, 180_000);

  it('the installed CLI sends, reads, and tails tile changes alone and with events (filtered)', async () => {
    const file = join(app, 'tile.json');
    writeFileSync(file, JSON.stringify({ name: 'CPU', kind: 'metric', rule: CPU_RULE }));
    const tile = json(await cli(['tiles', 'create', '--file', file])).data as { id: number };

    const follow = (args: string[]) => {
      const child = spawn(bin(), ['tail', project, ...args], { cwd: app, env });
      children.push(child);
      const seen = { out: '', err: '', exit: new Promise<number | null>((resolve) => child.on('exit', resolve)) };
      child.stdout.on('data', (d: Buffer) => (seen.out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (seen.err += d.toString()));
      return seen;
    };
    const tiles = follow(['--count', '1']);
    const events = follow(['--events', '--name', 'cpu', '--label', 'pack', '--count', '2']);
    await waitFor(() => tiles.err.includes('subscribed to') && events.err.includes('subscribed to') && events.err.includes('tailing events'), {
      timeoutMs: 30_000,
      what: 'both tails to start',
    });

    // One batch: an event the tail's filters leave out, then the one they match (events come in the order accepted).
    const ndjson = [
      { type: 'metric', name: 'mem', labels: ['pack'], attributes: { value: 10 } },
      { type: 'metric', name: 'cpu', labels: ['pack'], attributes: { value: 97 } },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(json(await cli(['send'], `${ndjson}\n`))).toEqual({ sent: 2, failed: 0, retries: 0 });

    expect(await tiles.exit).toBe(0);
    const tileLines = tiles.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(tileLines).toHaveLength(2);
    expect(tileLines[0]).toMatchObject({ type: 'snapshot', tiles: [{ tile_id: tile.id }] });
    expect(tileLines[1]).toMatchObject({ tile_id: tile.id, status: 'critical', value: 97 });

    expect(await events.exit).toBe(0);
    const eventLines = events.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(eventLines[0]).toMatchObject({ type: 'snapshot' });
    const rest = eventLines.slice(1);
    expect(rest).toHaveLength(2);
    expect(rest.filter((l) => l.type === 'event')).toEqual([
      { type: 'event', v: 1, project, event: expect.objectContaining({ name: 'cpu', labels: ['pack'], attributes: { value: 97 }, id: expect.any(Number) }) },
    ]);
    expect(rest.filter((l) => l.type !== 'event')).toMatchObject([{ tile_id: tile.id, status: 'critical' }]);

    const listed = await waitFor(
      async () => {
        const page = json(await cli(['events', 'list', '--label', 'pack']));
        return page.data.length === 2 ? page : undefined;
      },
      { timeoutMs: 30_000, what: 'the CLI-sent events listed' },
    );
    expect(listed.data.map((e: { name: string }) => e.name).sort()).toEqual(['cpu', 'mem']);

    const filterWithoutEvents = await cli(['tail', project, '--type', 'error']);
    expect(filterWithoutEvents.code).toBe(1);
    expect(filterWithoutEvents.stderr).toContain('add --events');
  }, 180_000);
});
