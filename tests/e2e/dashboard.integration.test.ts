import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { envelope, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { ARTIFACTS, launchChromium } from './browser.ts';

describe('the live dashboard in a real browser (headless Chromium from Debian)', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let browser: Browser;

  beforeAll(async () => {
    pipeline = await startPipeline();
    await pipeline.startRuleEngine();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
  });

  const tileText = (page: Page, name: string) => page.locator('li.tile', { hasText: name });

  it('signs in with a token, shows the tiles, updates live within 2 s, and recovers from a broadcast restart', async () => {
    const port = String(await import('@pulseboard/test-kit').then((kit) => kit.freePort()));
    let broadcast = await pipeline.startBroadcast({ BROADCAST_PORT: port });
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    for (const [name, rule] of [
      ['CPU', { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } }],
      ['Deploys', { filter: { type: 'deployment' }, evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } } }],
    ] as const) {
      expect((await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name, kind: 'metric', rule } })).status).toBe(201);
    }
    const ingest = async (event: Record<string, unknown>) => {
      const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, { timestamp: new Date().toISOString(), ...event }) });
      expect(res.status).toBe(201);
    };

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.setDefaultTimeout(20_000);
    await page.goto(broadcast.url);
    await page.getByLabel('User token or project key').fill(project.userToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    // The token is never in the URL; it lives in sessionStorage only.
    expect(page.url()).not.toContain(project.userToken);
    expect(await page.evaluate("sessionStorage.getItem('pb-token')")).toBe(project.userToken);
    await expect.poll(() => tileText(page, 'CPU').textContent()).toContain('Unknown');

    const started = Date.now();
    await ingest({ type: 'metric', name: 'cpu', attributes: { value: 97 } });
    await expect.poll(() => tileText(page, 'CPU').textContent(), { timeout: 2000, interval: 20 }).toContain('Critical');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await tileText(page, 'CPU').textContent()).toContain('97');

    // Broadcast goes away; a change made meanwhile shows once it is back, with no reload.
    await broadcast.process.kill('SIGTERM');
    await expect.poll(() => page.locator('#connection').textContent()).toMatch(/Reconnecting|Connecting/);
    await ingest({ type: 'deployment', name: 'deploy_failed' });
    broadcast = await pipeline.startBroadcast({ BROADCAST_PORT: port });
    await expect.poll(() => tileText(page, 'Deploys').textContent(), { timeout: 20000 }).toContain('Critical');
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    await ingest({ type: 'metric', name: 'cpu', attributes: { value: 10 } });
    await expect.poll(() => tileText(page, 'CPU').textContent(), { timeout: 2000, interval: 20 }).toContain('OK');

    // Status by text and shape, reachable by keyboard.
    await page.keyboard.press('Tab');
    const focused = await page.evaluate('document.activeElement?.id || document.activeElement?.tagName');
    expect(['project', 'SELECT']).toContain(focused);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement?.classList.contains('tile')")).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    // Room for each step's own timeout (a service's start or exit, a browser action) to fail with its message first.
  }, 120_000);

  it('says so when the project on screen is deleted, and stops showing its tiles', async () => {
    const broadcast = await pipeline.startBroadcast();
    const project = await pipeline.provision({});
    const rule = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };
    expect((await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU', kind: 'metric', rule } })).status).toBe(201);
    const page = await browser.newPage();
    await page.goto(broadcast.url);
    await page.getByLabel('User token or project key').fill(project.userToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tileText(page, 'CPU').count()).toBe(1);

    expect((await request(`${pipeline.url}/api/v1/admin/projects/${project.projectKey}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN })).status).toBe(204);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Project deleted');
    expect(await page.locator('#notice').textContent()).toContain(`Project ${project.projectKey} was deleted`);
    expect(await tileText(page, 'CPU').count()).toBe(0);
    await page.close();
  });
});
