import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import pg from 'pg';
import { envelope, request } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { launchChromium } from './browser.ts';

const until = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 20_000, interval: 100, ...options });

/** The tile editor's "apply to the past": a rule change saved with it replays the tile over the stored events (POST /tiles/:id/replay). */
describe('the dashboard applies a rule change to the past', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let browser: Browser;
  let db: pg.Pool;

  beforeAll(async () => {
    pipeline = await startPipeline();
    db = new pg.Pool({ connectionString: pipeline.env.DATABASE_URL, max: 2 });
    await Promise.all([pipeline.startRuleEngine(), pipeline.startStore()]);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
    await db?.end();
  });

  it('offers it only once the rule changed, beside the preview, and the tile then shows what the new rule says of the stored events', async () => {
    const broadcast = await pipeline.startBroadcast();
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const rule = { filter: { name: 'latency' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 500, critical: 900 } };
    const tile = (await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'Latency', kind: 'latency', rule } })).body.data
      .id as number;
    for (const value of [120, 300])
      expect(
        (
          await request(`${pipeline.url}/ingest`, {
            token: project.apiKey,
            body: envelope(project.projectKey, { type: 'metric', name: 'latency', timestamp: new Date().toISOString(), attributes: { value } }),
          })
        ).status,
      ).toBe(201);
    const state = async () => (await db.query('SELECT status, value FROM tile_states WHERE tile_id = $1', [tile])).rows[0];
    await until(async () => (await state())?.value).toBe(300);
    await until(async () => Number((await db.query('SELECT count(*) FROM events WHERE project_key = $1', [project.projectKey])).rows[0].count)).toBe(2);

    const errors: string[] = [];
    const signedIn = async () => {
      const opened = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      opened.setDefaultTimeout(15_000);
      opened.on('pageerror', (e) => errors.push(String(e)));
      await opened.goto(broadcast.url);
      await opened.getByLabel('User token or project key').fill(project.userToken);
      await opened.getByRole('button', { name: 'Sign in' }).click();
      return opened;
    };
    // A second dashboard that only watches (the editing page reads every history again after its save): its
    // tile's history chart, drawn from GET /tiles/:id/history, shows the old rule's two verdicts.
    const viewer = await signedIn();
    const chart = viewer.locator(`li[data-tile="${tile}"] .chart`);
    await until(() => chart.getAttribute('aria-label')).toBe('Chart of the last hour: value from 120 to 300; 2 status changes, now OK');
    const page = await signedIn();
    await page.getByRole('button', { name: 'Edit Latency' }).click();
    const editor = page.getByRole('dialog');
    const applyPast = editor.getByLabel(/Apply to the past/);
    expect(await applyPast.count()).toBe(0);
    await editor.getByLabel('JSON', { exact: true }).check();
    await editor.getByLabel('Rule JSON').fill(JSON.stringify({ ...rule, evaluation: { ...rule.evaluation, warning: 200 } }));
    await editor.getByRole('button', { name: 'Preview' }).click();
    await until(() => editor.locator('.preview-note').textContent()).toContain('it would be Warning now');
    await applyPast.check();
    await editor.getByRole('button', { name: 'Save' }).click();
    // Closed once saved and applied; otherwise the editor says why.
    await until(async () => ((await page.getByRole('dialog').count()) === 0 ? 'closed' : await editor.getByRole('alert').textContent())).toBe('closed');
    // Saved and applied: the live state is the new rule's verdict on the stored events, not "unknown until the next event".
    await until(async () => await state()).toEqual({ status: 'warning', value: 300 });
    const causes = (await db.query('SELECT cause FROM tile_state_history WHERE tile_id = $1 ORDER BY id', [tile])).rows.map((r) => r.cause);
    expect(causes).toEqual(['event', 'event', 'rule']);
    // Without a reload, the watching dashboard's chart is redrawn from the replayed history (tile_replaced): OK then
    // Warning at the events, then the closing change; not the old verdicts followed by the rule change's "unknown".
    const history = (await request(`${pipeline.url}/api/v1/tiles/${tile}/history`, { token: project.apiKey })).body.data;
    expect(history.map((h: { status: string }) => h.status)).toEqual(['warning', 'warning', 'ok']);
    await until(() => chart.getAttribute('aria-label')).toBe('Chart of the last hour: value from 120 to 300; 3 status changes, now Warning');
    expect(errors).toEqual([]);
  }, 120_000);
});
