import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { envelope, request, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { ARTIFACTS, launchChromium } from './browser.ts';

/** The element's background colour as the browser computes it (run in the page; the tests' types have no DOM). */
const background = (el: unknown) =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor;

/** The dashboard's header says how far behind live the project's tiles are, and turns amber past 30 s. */
describe('the dashboard shows the tiles freshness', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let engine: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    pipeline = await startPipeline();
    engine = await pipeline.startRuleEngine();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
  });

  it('reads "Tiles live" while the rule engine keeps up, and "N s behind" in amber once it has stopped with events waiting for 30 s', async () => {
    const broadcast = await pipeline.startBroadcast();
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const send = async () => expect((await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) })).status).toBe(201);
    await send();

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(broadcast.url);
    await page.getByLabel('User token or project key').fill(project.userToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const badge = page.locator('header #freshness');
    await expect.poll(() => badge.textContent(), { timeout: 30_000, interval: 250 }).toBe('Tiles live');
    expect(await badge.getAttribute('data-status')).toBe('live');
    const liveColour = await badge.evaluate(background);

    await engine.kill('SIGTERM');
    await send();
    // The header asks every 5 s: "N s behind" soon, amber once 30 s have passed since the last applied event.
    await expect.poll(() => badge.textContent(), { timeout: 30_000, interval: 500 }).toMatch(/^Tiles \d+ s behind$/);
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 60_000, interval: 500 }).toBe('behind');
    expect(await badge.textContent()).toMatch(/^Tiles (3\d|[4-9]\d|1[01]\d) s behind$/);
    const amber = await badge.evaluate(background);
    expect(amber).toBe('rgb(138, 88, 0)');
    expect(amber).not.toBe(liveColour);
    expect(await badge.getAttribute('title')).toContain('events wait for the rule engine');
    await page.screenshot({ path: `${ARTIFACTS}dashboard-freshness-behind.png` });
    expect(errors).toEqual([]);
  }, 180_000);
});
