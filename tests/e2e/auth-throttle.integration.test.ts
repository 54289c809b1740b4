import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_CLOSE } from '@pulseboard/contracts';
import { requestFrom, TEST_ADMIN_TOKEN, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

const LIMIT = 20;

/** The sum of a counter (every label set) in a service's /metrics. */
async function counter(base: string, name: string): Promise<number> {
  const text = String((await requestFrom('127.0.0.1', `${base}/metrics`)).body);
  return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Waits until the current minute has `seconds` left, so a burst of failures falls in one one-minute window. */
async function roomInThisMinute(seconds = 25): Promise<void> {
  await waitFor(() => 60_000 - (Date.now() % 60_000) >= seconds * 1000, { timeoutMs: 40_000, what: 'a fresh minute', intervalMs: 200 });
}

const bad = (prefix = 'evu_') => `${prefix}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

/**
 * Failed authentications through broadcast, on the real processes: the
 * WebSocket `auth` messages broadcast looks up itself, and the dashboard's API
 * calls it passes to the gateway, counted per browser address there. Each test
 * plays its clients from addresses of its own (127.0.x.y).
 */
describe('failed authentications through broadcast: the socket and the pass-through', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcast: string;
  let project: Awaited<ReturnType<typeof pipeline.provision>>;

  beforeAll(async () => {
    pipeline = await startPipeline({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), BROADCAST_AUTH_FAILURES_PER_MINUTE: String(LIMIT) });
    broadcast = (await pipeline.startBroadcast()).url;
    project = await pipeline.provision();
  }, 120_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('many bad `auth` messages from one address cost at most the limit of lookups; then a valid token from it is ready', async () => {
    await roomInThisMinute();
    const before = await counter(broadcast, 'pulseboard_broadcast_credential_lookups_total');
    const reasons: string[] = [];
    for (let i = 0; i < 60; i++) {
      const socket = await TestSocket.open(broadcast, { localAddress: '127.0.5.1' });
      socket.send({ type: 'auth', token: i % 2 === 0 ? bad('evu_') : bad('evk_') });
      const closed = await socket.waitClosed();
      expect(closed.code).toBe(BROADCAST_CLOSE.authFailed);
      reasons.push(closed.reason);
    }
    expect(reasons.filter((r) => r === 'authentication failed')).toHaveLength(LIMIT);
    expect(reasons.filter((r) => r === 'too many failed authentications')).toHaveLength(60 - LIMIT);
    expect((await counter(broadcast, 'pulseboard_broadcast_credential_lookups_total')) - before).toBeLessThanOrEqual(LIMIT);

    // The same address, the same minute: a valid user token (never used on a socket) and a valid key get in.
    for (const token of [project.userToken, project.apiKey]) {
      const socket = await TestSocket.open(broadcast, { localAddress: '127.0.5.1' });
      socket.send({ type: 'auth', token });
      expect((await socket.next((m) => m.type === 'ready')).projects.map((p: { project_key: string }) => p.project_key)).toContain(project.projectKey);
      socket.close();
    }
    expect((await counter(broadcast, 'pulseboard_broadcast_credential_lookups_total')) - before).toBeLessThanOrEqual(LIMIT + 2);

    // In the upgrade's header likewise: garbage 429, a valid token upgrades; another address is not held.
    await expect(TestSocket.open(broadcast, { localAddress: '127.0.5.1', headerToken: bad() })).rejects.toThrow('429');
    const upgraded = await TestSocket.open(broadcast, { localAddress: '127.0.5.1', headerToken: project.userToken });
    await upgraded.next((m) => m.type === 'ready');
    upgraded.close();
    await expect(TestSocket.open(broadcast, { localAddress: '127.0.5.2', headerToken: bad() })).rejects.toThrow('401');
  }, 60_000);

  it("100 failures through the dashboard's pass-through are counted for the browser's address; a valid token then works through it", async () => {
    await roomInThisMinute();
    const gateway = pipeline.url;
    const before = await counter(gateway, 'pulseboard_gateway_credential_lookups_total');
    const statuses: number[] = [];
    for (let burst = 0; burst < 5; burst++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => requestFrom('127.0.6.1', `${broadcast}/api/v1/tiles`, { token: bad() })));
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LIMIT);
    expect((await counter(gateway, 'pulseboard_gateway_credential_lookups_total')) - before).toBeLessThanOrEqual(LIMIT);

    // That browser, this minute: its valid token works through the pass-through.
    const tiles = await requestFrom('127.0.6.1', `${broadcast}/api/v1/tiles?project_key=${project.projectKey}`, { token: project.userToken });
    expect(tiles.status).toBe(200);
    // Another browser behind the same broadcast is not held by the first one's failures, nor can it pose as a third.
    expect((await requestFrom('127.0.6.2', `${broadcast}/api/v1/tiles`, { token: bad(), headers: { 'x-forwarded-for': '127.0.6.1' } })).status).toBe(401);
    // The gateway saw browsers, not broadcast: broadcast's own address (127.0.0.1) was never charged.
    expect((await requestFrom('127.0.0.1', `${gateway}/api/v1/tiles`, { token: bad() })).status).toBe(401);
  }, 60_000);

  it('the pass-through forwards only the dashboard’s routes: climbing paths, /admin, /metrics, /readyz, /docs are 404 in the documented shape', async () => {
    for (const path of [
      '/api/v1/../../metrics',
      '/api/v1/%2e%2e/%2e%2e/metrics',
      '/api/v1/%2E%2E/%2E%2E/readyz',
      '/api/v1/tiles/..%2f..%2f..%2fdocs',
      '/api/v1//tiles',
      '/api/v1/admin/accounts',
      '/api/v1/openapi.json',
      '/api/v1/../../docs',
    ]) {
      const answer = await requestFrom('127.0.0.1', `${broadcast}${path}`, { token: project.userToken });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
    // With the admin token too: the admin API is not reachable through broadcast.
    expect((await requestFrom('127.0.0.1', `${broadcast}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
    // What the dashboard uses still passes, with the gateway's answer headers: never cached, never sniffed.
    const passed = await requestFrom('127.0.0.1', `${broadcast}/api/v1/notifications`, { token: project.userToken });
    expect(passed.status).toBe(200);
    for (const answer of [passed, await requestFrom('127.0.0.1', `${broadcast}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN })]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
