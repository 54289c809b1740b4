import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Browser } from 'playwright-core';
import { buildBrowserBundle } from '../../packages/client/src/build/browser-build.ts';
import { PulseboardApiError, PulseboardClient, type FailedOutcome, type TileChangeMessage, type WebSocketConstructor } from '@pulseboard/client';
import { awayFromMinuteEnd, freePort, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { launchChromium } from './browser.ts';

type Pipeline = Awaited<ReturnType<typeof startPipeline>>;
const CPU_RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } } as const;

describe('@pulseboard/client against the real stack', () => {
  let pipeline: Pipeline;
  let broadcastPort: string;
  let broadcast: { url: string; process: ServiceProcess };
  let browser: Browser;

  beforeAll(async () => {
    pipeline = await startPipeline();
    broadcastPort = String(await freePort());
    [broadcast] = await Promise.all([pipeline.startBroadcast({ BROADCAST_PORT: broadcastPort }), pipeline.startRuleEngine(), pipeline.startStore()]);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
  });

  const failures = () => {
    const failed: FailedOutcome[] = [];
    return { failed, hooks: { onFailed: (f: FailedOutcome) => failed.push(f) } };
  };
  const wsUrl = () => `ws://127.0.0.1:${broadcastPort}/ws`;

  it('402: not retried, a typed error with the code (webhooks) and the quota (/ingest, one event per request)', async () => {
    const project = await pipeline.provision({ monthlyQuota: 5, burstLimit: 1000, hourlyLimit: 1000 });
    const { failed, hooks } = failures();
    const client = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, hooks });
    for (let i = 0; i < 6; i++) await client.send({ type: 'metric', name: 'cpu', attributes: { value: i } });
    expect(await client.close()).toMatchObject({ sent: 0, failed: 6, retries: 0 });
    const error = failed[0]!.error as PulseboardApiError;
    expect(error).toBeInstanceOf(PulseboardApiError);
    expect(error).toMatchObject({ status: 402, code: 'quota_exceeded', body: { error: { code: 'quota_exceeded' } } });
    expect(failed[0]!.events).toHaveLength(6);

    const single = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, projectKey: project.projectKey, endpoint: 'ingest', hooks });
    for (let i = 0; i < 6; i++) await single.send({ type: 'metric', name: 'cpu', attributes: { value: i } });
    expect(await single.close()).toMatchObject({ sent: 5, failed: 1, retries: 0 });
    expect(failed[1]!.error).toMatchObject({ status: 402, code: 'quota_exceeded', body: { status: 'error', quota_limit: 5, quota_used: 5 } });
  });

  it('400: a bad event fails its batch with the contract’s details; 429: Retry-After honoured, never hammered', async () => {
    const project = await pipeline.provision({ burstLimit: 10, hourlyLimit: 1000 });
    const { failed, hooks } = failures();
    const client = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, hooks });
    await client.send({ type: 'bogus' as 'metric', name: 'cpu' });
    await client.flush();
    expect(failed[0]!.error).toMatchObject({ status: 400, code: 'validation_error', details: { 'events[0].type': [expect.any(String)] } });

    // Early enough in the minute that the burst window's Retry-After is well past the 2 s budget.
    await awayFromMinuteEnd(15);
    const limited = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, hooks, retry: { maxElapsedMs: 2000 } });
    for (let i = 0; i < 10; i++) await limited.send({ type: 'metric', name: 'cpu', attributes: { value: i } });
    expect(await limited.flush()).toMatchObject({ sent: 10 });
    await limited.send({ type: 'metric', name: 'cpu', attributes: { value: 11 } });
    expect(await limited.close()).toMatchObject({ sent: 10, failed: 1, retries: 0 });
    const error = failed[1]!.error as PulseboardApiError;
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', message: expect.stringContaining('burst limit of 10') });
    expect(error.retryAfterMs).toBeGreaterThan(2000);
  });

  it("full buffer: 'drop' refuses and counts past the bound, 'wait' holds the producer; what was queued is stored", async () => {
    const project = await pipeline.provision({ burstLimit: 100_000, hourlyLimit: 100_000 });
    const dropping = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, maxBufferEvents: 100, whenFull: 'drop' });
    // Not awaited one by one: 1,000 sends arrive before any request can finish.
    const queued = await Promise.all(Array.from({ length: 1000 }, (_, n) => dropping.send({ type: 'metric', name: 'drop', attributes: { n } })));
    expect(queued.filter(Boolean)).toHaveLength(100);
    expect(await dropping.close()).toMatchObject({ sent: 100, dropped: 900 });

    const waiting = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, maxBufferEvents: 50 });
    let most = 0;
    for (let n = 0; n < 500; n++) {
      await waiting.send({ type: 'metric', name: 'wait', attributes: { n } });
      most = Math.max(most, waiting.stats().pending);
    }
    expect(most).toBeLessThanOrEqual(50);
    expect(await waiting.close()).toMatchObject({ sent: 500, dropped: 0 });

    // Read back through the client's read API.
    const reader = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey });
    const count = async (name: string) => (await reader.events.list({ name, per_page: 1 })).meta.total_count;
    await waitFor(async () => (await count('drop')) === 100 && (await count('wait')) === 500, { timeoutMs: 30_000, what: '600 events stored' });
  });

  it('subscribe(): every change once and in order across a broadcast restart (resumed from the last position)', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const client = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey, broadcastUrl: wsUrl(), lingerMs: 0 });
    const tile = (await client.tiles.create({ name: 'CPU', kind: 'metric', rule: CPU_RULE })).data;
    const changes: TileChangeMessage[] = [];
    const subscribedInfo: Array<{ resumed: boolean; reconnects: number }> = [];
    const sub = client.subscribe(project.projectKey, {
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      reconnect: { baseMs: 100, maxMs: 500 },
      onChange: (c) => changes.push(c),
      onSubscribed: (s) => subscribedInfo.push(s),
    });
    try {
      await waitFor(() => subscribedInfo.length === 1, { what: 'subscribed' });
      const cpu = async (value: number) => {
        await client.send({ type: 'metric', name: 'cpu', attributes: { value } });
        await client.flush();
      };
      const version = async () => (await client.tiles.state(tile.id)).data.version;
      await cpu(10);
      await cpu(90);
      await waitFor(() => changes.length === 2, { what: 'two live changes' });

      await broadcast.process.kill('SIGTERM');
      await cpu(99);
      await cpu(20);
      await cpu(85);
      await waitFor(async () => (await version()) === 5, { what: 'the engine to apply the events sent while broadcast was down' });
      broadcast = await pipeline.startBroadcast({ BROADCAST_PORT: broadcastPort });
      await waitFor(() => changes.length >= 5, { timeoutMs: 30_000, what: 'the missed changes' });
      await cpu(50);
      await waitFor(() => changes.length >= 6, { what: 'a live change after the resume' });

      expect(changes.map((c) => c.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(changes.map((c) => c.status)).toEqual(['ok', 'warning', 'critical', 'ok', 'warning', 'ok']);
      expect(subscribedInfo.at(-1)).toMatchObject({ resumed: true });
      expect(subscribedInfo.at(-1)!.reconnects).toBeGreaterThanOrEqual(1);
      expect(sub.position).toBe(changes.at(-1)!.position);
    } finally {
      sub.close();
      await client.close();
    }
  });

  it("in Chromium, the client's browser build sends (gzipped batch) and subscribes", async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const setup = new PulseboardClient({ url: pipeline.url, apiKey: project.apiKey });
    await setup.tiles.create({ name: 'CPU', kind: 'metric', rule: CPU_RULE });
    const bundle = await buildBrowserBundle();
    // The routed page has no network address, so Chromium would count it as public and refuse it the
    // loopback broadcast socket (Local Network Access); a real page would come from the gateway's host.
    const context = await browser.newContext({ permissions: ['local-network-access'] });
    const page = await context.newPage();
    try {
      // The page is served from the gateway's origin (the gateway sends no CORS headers), the bundle beside it.
      // Its script is plain text (vitest would rewrite an import() inside page.evaluate).
      const script = `
        import { PulseboardClient } from './pulseboard-client.js';
        const { apiKey, projectKey, broadcastUrl } = ${JSON.stringify({ apiKey: project.apiKey, projectKey: project.projectKey, broadcastUrl: wsUrl() })};
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        try {
          const reader = new PulseboardClient({ url: location.origin, apiKey, broadcastUrl });
          const changes = [];
          let subscribed = false;
          const sub = reader.subscribe(projectKey, { onChange: (c) => changes.push(c.value), onSubscribed: () => (subscribed = true) });
          const statuses = [];
          const client = new PulseboardClient({ url: location.origin, apiKey, gzipAboveBytes: 1000, hooks: { onSent: (o) => statuses.push(o.status) } });
          for (let i = 0; i < 20; i++) await client.send({ type: 'metric', name: 'pad', attributes: { text: 'x'.repeat(100) } });
          await client.flush();
          while (!subscribed) await sleep(50);
          await client.send({ type: 'metric', name: 'cpu', attributes: { value: 97 } });
          const stats = await client.close();
          for (let waited = 0; changes.length === 0 && waited < 15000; waited += 100) await sleep(100);
          sub.close();
          const listed = await reader.events.list({ name: 'pad', per_page: 1 });
          window.result = { stats, statuses, changes, total: listed.meta.total_count, gzip: typeof CompressionStream };
        } catch (error) {
          window.result = { error: String(error) };
        }`;
      const pageLog: string[] = [];
      page.on('console', (m) => pageLog.push(`${m.type()}: ${m.text()}`));
      page.on('pageerror', (e) => pageLog.push(`error: ${e.message}`));
      const gzipped: boolean[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/v1/webhooks')) gzipped.push(r.headers()['content-encoding'] === 'gzip');
      });
      await page.route(`${pipeline.url}/client-test/**`, (route) =>
        route.request().url().endsWith('.js')
          ? route.fulfill({ contentType: 'text/javascript', body: bundle })
          : route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>client</title><script type="module">${script}</script>` }),
      );
      await page.goto(`${pipeline.url}/client-test/`);
      const result = (await (
        await page
          .waitForFunction(() => (globalThis as unknown as { result?: unknown }).result, undefined, { timeout: 30_000 })
          .catch((error: Error) => {
            throw new Error(`${error.message}\npage log:\n${pageLog.join('\n')}`);
          })
      ).jsonValue()) as any;
      expect(result.error).toBeUndefined();
      expect(result.stats).toMatchObject({ sent: 21, failed: 0 });
      expect(result.statuses.every((s: number) => s === 201 || s === 202)).toBe(true);
      expect(result.changes).toEqual([97]);
      // The batch of 20 padded events went gzipped, the single one not.
      expect(gzipped).toEqual([true, false]);
      await waitFor(async () => (await setup.events.list({ name: 'pad', per_page: 1 })).meta.total_count === 20, { what: '20 events stored' });
    } finally {
      await context.close();
    }
  });
});
