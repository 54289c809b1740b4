import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freePort, request, serviceTestEnv, TEST_DATABASE_URL, TEST_KAFKA_BROKERS, TEST_REDIS_URL } from '@pulseboard/test-kit';
import { ARTIFACTS, launchChromium } from './browser.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a deploy script as a person would (bash, from the repository), with `env` only. */
function script(path: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * The README's first command on its own: the real deploy/up.sh, in a state dir,
 * database, set of ports, topics and consumer groups of its own (beside the
 * developer's stack and other tests on the shared broker), with a `pnpm` first
 * on PATH that fails, so a global pnpm is never what the scripts run. The one
 * link it prints opens the demo project signed in, its six tiles live; running
 * up.sh again keeps that page and its token working. deploy/down.sh after.
 */
describe('deploy/up.sh, and the dashboard link it prints', () => {
  const state = mkdtempSync(join(tmpdir(), 'pb-up-'));
  const database = `pulseboard_test_scratch_up${randomUUID().slice(0, 8)}`;
  const databaseUrl = (() => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let env: Record<string, string>;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const trap = join(state, 'trap');
    mkdirSync(trap);
    writeFileSync(join(trap, 'pnpm'), '#!/bin/sh\necho "global pnpm used" >&2\nexit 1\n');
    chmodSync(join(trap, 'pnpm'), 0o755);
    const isolated = serviceTestEnv();
    const pick = (pattern: RegExp) => Object.fromEntries(Object.entries(isolated).filter(([name]) => pattern.test(name)));
    env = {
      PATH: `${trap}:${process.env.PATH}`,
      HOME: process.env.HOME ?? '/root',
      PULSEBOARD_STATE_DIR: join(state, 'state'),
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      KAFKA_BROKERS: TEST_KAFKA_BROKERS,
      // Topics and consumer groups of this stack alone (the broker is shared).
      ...pick(/^TOPIC_|_GROUP_ID$/),
      KAFKA_CLIENT_ID: `test-up-${randomUUID().slice(0, 8)}`,
      GATEWAY_PORT: String(await freePort()),
      BROADCAST_PORT: String(await freePort()),
      STORE_HTTP_PORT: String(await freePort()),
      RULE_ENGINE_HTTP_PORT: String(await freePort()),
      NOTIFICATION_HTTP_PORT: String(await freePort()),
      // Counters every test shares in Redis (global and account hours, failed authentications from 127.0.0.1).
      ...pick(/^(GLOBAL_HOURLY_LIMIT|DEFAULT_ACCOUNT_HOURLY_LIMIT|AUTH_FAILURES_PER_MINUTE|NOTIFY_SENDS_PER_MINUTE)$/),
    };
    // The trap is what a bare `pnpm` finds first.
    expect((await script('-c', ['pnpm --version'], env, 10_000)).output).toContain('global pnpm used');
  });

  afterAll(async () => {
    await browser?.close();
    if (env !== undefined) {
      const down = await script('deploy/down.sh', [], env, 120_000);
      if (down.code !== 0) console.error(`deploy/down.sh failed: ${down.output}`);
    }
    const admin = new pg.Client({
      connectionString: (() => {
        const url = new URL(TEST_DATABASE_URL);
        url.pathname = '/postgres';
        return url.toString();
      })(),
    });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() => admin.end());
    rmSync(state, { recursive: true, force: true });
  }, 180_000);

  it('starts everything with the pinned pnpm; its link opens the demo signed in with six live tiles; a second run keeps the page and the token working', async () => {
    const up = await script('deploy/up.sh', [], env, 600_000);
    expect(up.output).not.toContain('global pnpm used');
    expect(up.code, up.output).toBe(0);

    const link = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/#project=([^&\s]+)&token=(\S+))$/m.exec(up.output);
    expect(link, up.output).not.toBeNull();
    const [, url, project, token] = link!;
    expect(url!.startsWith(`http://127.0.0.1:${env.BROADCAST_PORT}/#`)).toBe(true);
    expect(project).toBe('demo');
    // What to paste where, for signing in by hand.
    expect(up.output).toContain('paste the user token into "User token or project key"');
    expect(up.output).toContain(`PULSEBOARD_DEMO_USER_TOKEN=${token}`);
    const credentials = join(env.PULSEBOARD_STATE_DIR!, 'demo-credentials.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url!);
    await expect.poll(() => page.locator('#connection').textContent(), { timeout: 30_000 }).toBe('Live');
    expect(page.url()).toBe(`http://127.0.0.1:${env.BROADCAST_PORT}/`);
    expect(await page.locator('#project').inputValue()).toBe('demo');
    const tiles = page.locator('li.tile');
    await expect.poll(() => tiles.count(), { timeout: 30_000 }).toBe(6);
    // Live: the generator's events move every tile out of Unknown, and the CPU tile keeps changing.
    await expect.poll(async () => (await tiles.allTextContents()).filter((text) => text.includes('Unknown')).length, { timeout: 60_000 }).toBe(0);
    const cpu = page.locator('li.tile', { hasText: 'CPU usage' });
    const before = await cpu.locator('.value').textContent();
    await expect.poll(() => cpu.locator('.value').textContent(), { timeout: 60_000 }).not.toBe(before);
    await page.screenshot({ path: join(ARTIFACTS, 'up-demo-link.png') });

    // The token never reached a log: the fragment stays in the browser.
    const logs = join(env.PULSEBOARD_STATE_DIR!, 'run');
    for (const file of readdirSync(logs).filter((f) => f.endsWith('.log'))) expect(readFileSync(join(logs, file), 'utf8'), file).not.toContain(token!);

    // Again: the same credentials, still working; the open page stays signed in and live.
    const again = await script('deploy/up.sh', [], env, 600_000);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(url!);
    expect(again.output).not.toContain('note:');
    const gateway = `http://127.0.0.1:${env.GATEWAY_PORT}`;
    expect((await request(`${gateway}/api/v1/projects/demo`, { token: token! })).status).toBe(200);
    const after = await cpu.locator('.value').textContent();
    await expect.poll(() => cpu.locator('.value').textContent(), { timeout: 60_000 }).not.toBe(after);
    expect(await page.locator('#connection').textContent()).toBe('Live');
    expect((await request(`${gateway}/api/v1/projects/demo/refusals`, { token: token! })).body.data.count).toBe(0);

    // Outbound stays outbound on this stack: up.sh allows no loopback notification target (issue 41 point 5).
    for (const target of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook']) {
      const refused = await request(`${gateway}/api/v1/notifications`, { token: token!, body: { name: 'loopback', type: 'webhook', config: { url: target } } });
      expect(refused.status, target).toBe(400);
      expect(refused.body.error.code, target).toBe('validation_error');
    }
    // Broadcast's pass-through is trusted by this stack's gateway: both run with the state dir's INTERNAL_PROXY_SECRET (issue 41 point 2).
    expect(readFileSync(join(logs, 'broadcast.log'), 'utf8')).not.toContain('internal_proxy_secret_unset');
    const proxySecret = readFileSync(join(env.PULSEBOARD_STATE_DIR!, 'internal-proxy-secret'), 'utf8').trim();
    const passed = { 'x-pulseboard-proxy-secret': proxySecret, 'x-pulseboard-client': '203.0.113.1' };
    expect((await request(`${gateway}/internal/v1/credential-check`, { token: token!, headers: passed })).body).toEqual({ valid: true });
    expect(errors).toEqual([]);
  }, 1_500_000);
});
