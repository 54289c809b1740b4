import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { envelope, request } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { ARTIFACTS, launchChromium } from './browser.ts';

/** expect.poll with room for a busy machine: every wait here is for the pipeline or the page. */
const until = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 100 });

/**
 * A grouped tile (rule `group_by: host`) on the dashboard, through gateway, store, rule engine and
 * broadcast: the editor's group-by field and preview, the card's counts per status and worst
 * hosts first, kept live by the hosts' own changes, and one host's chart on click.
 */
describe('a grouped tile on the dashboard in a real browser', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let browser: Browser;

  beforeAll(async () => {
    pipeline = await startPipeline();
    await Promise.all([pipeline.startRuleEngine(), pipeline.startStore()]);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
  });

  it('creates a tile grouped by host with the editor (its preview counts the hosts); the card shows counts per status, the worst host first, follows a host going critical live, and charts a host on click', async () => {
    const broadcast = await pipeline.startBroadcast();
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const cpu = async (host: string, value: number) => {
      const body = envelope(project.projectKey, { type: 'metric', name: 'cpu_usage', timestamp: new Date().toISOString(), attributes: { cpu: value, host } });
      expect((await request(`${pipeline.url}/ingest`, { token: project.apiKey, body })).status).toBe(201);
    };
    // Stored events the preview evaluates (no tile yet: they move nothing).
    for (const [host, value] of [
      ['web-1', 97],
      ['web-2', 50],
      ['web-3', 85],
      ['web-4', 40],
    ] as const)
      await cpu(host, value);

    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(broadcast.url);
    await page.getByLabel('User token or project key').fill(project.userToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await until(() => page.locator('#connection').textContent()).toBe('Live');

    await page.getByRole('button', { name: 'New tile' }).click();
    const editor = page.getByRole('dialog');
    await editor.getByLabel('Name', { exact: true }).fill('CPU by host');
    await editor.getByLabel('Event names (comma separated)').fill('cpu_usage');
    await editor.getByLabel('Attribute').fill('cpu');
    await editor.getByLabel('Warning at').fill('80');
    await editor.getByLabel('Critical at').fill('90');
    await editor.getByLabel('Group by (optional)').fill('host');
    await until(() => editor.locator('.problems').textContent()).toContain('Valid against tile-rule.json');
    // The store may still be writing the events: preview until it has all four.
    await until(async () => {
      await editor.getByRole('button', { name: 'Preview' }).click();
      await until(() => editor.locator('.preview-note').textContent()).not.toBe('Evaluating…');
      return editor
        .locator('.preview-group-counts')
        .textContent({ timeout: 1000 })
        .catch(() => null);
    }).toBe('Groups: 1 critical · 1 warning · 2 ok');
    expect(await editor.getByRole('list', { name: 'Worst groups' }).locator('li').allTextContents()).toEqual([
      'web-1: Critical 97',
      'web-3: Warning 85',
      'web-2: OK 50',
      'web-4: OK 40',
    ]);
    await editor.getByRole('button', { name: 'Create tile' }).click();

    const card = page.locator('li.tile', { hasText: 'CPU by host' });
    await until(() => card.locator('.group-counts').textContent()).toBe('no groups yet');
    for (const [host, value] of [
      ['web-1', 97],
      ['web-2', 50],
      ['web-3', 85],
      ['web-4', 40],
    ] as const)
      await cpu(host, value);
    await until(() => card.locator('.group-counts').textContent()).toBe('1 critical · 1 warning · 2 ok');
    const keys = () => card.locator('li.group').evaluateAll((items) => items.map((li) => li.getAttribute('data-group')));
    expect(await keys()).toEqual(['web-1', 'web-3', 'web-2', 'web-4']);
    expect(await card.locator('li.group').first().textContent()).toContain('Critical');
    // The tile's own state: its worst group's status, and how many groups have it.
    await until(() => card.locator('.status').textContent()).toContain('Critical');
    expect(await card.locator('.value').textContent()).toBe('1');

    // Another host goes critical: the list follows live, and the tile's own value with its own change.
    await cpu('web-4', 95);
    await until(() => card.locator('.group-counts').textContent()).toBe('2 critical · 1 warning · 1 ok');
    expect(await keys()).toEqual(['web-1', 'web-4', 'web-3', 'web-2']);
    await until(() => card.locator('.value').textContent()).toBe('2');
    expect(await card.locator('.status').textContent()).toContain('Critical');

    // One host's chart on demand: its own history (?group=web-4), ok then critical.
    await card.getByRole('button', { name: /web-4/ }).click();
    const chart = card.locator('li.group[data-group="web-4"] .chart');
    await until(() => chart.getAttribute('aria-label')).toMatch(/value from 40 to 95; 2 status changes, now Critical/);
    await until(() => chart.locator('canvas').count()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}dashboard-groups.png` });
    expect(errors).toEqual([]);
  }, 180_000);
});
