import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { provisionProject, request, TEST_ADMIN_TOKEN, TEST_REDIS_URL } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';
import { manualClock, privateHour } from '../../test/ingest-test-kit.ts';
import { AuthThrottle } from './auth-throttle.ts';
import { FixedWindowCounter } from '../limits/fixed-window.ts';
import { PulseboardError } from '@pulseboard/contracts';

const RULE = { evaluation: { kind: 'up_down', attribute: 'is_up' } };

describe('abuse limits: failed authentications, unknown tokens, sends, resource caps', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let project: Awaited<ReturnType<typeof provisionProject>>;
  // Each test moves to a minute of its own, so the one-minute windows start empty.
  const clock = manualClock(privateHour());
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway(
      {
        AUTH_FAILURES_PER_MINUTE: '5',
        NOTIFY_SENDS_PER_MINUTE: '2',
        NOTIFY_SEND_TIMEOUT_MS: '50',
        MAX_TILES_PER_PROJECT: '3',
        MAX_NOTIFICATION_SERVICES_PER_ACCOUNT: '2',
      },
      { now: () => clock.now() },
    );
    project = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('throttles failed authentications per client address: 401 up to the limit, then 429 with Retry-After; valid credentials still pass', async () => {
    clock.advance(120_000);
    // A key the gateway has cached keeps working from the same address (the hot path asks no one).
    expect((await request(url('/api/v1/projects'), { token: project.apiKey })).status).toBe(200);
    const bad = () => `evk_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < 5; i++) {
      const answer = await request(url('/api/v1/projects'), { token: i % 2 === 0 ? bad() : 'evu_unknown-token-' + i });
      expect(answer.status).toBe(401);
    }
    const throttled = await request(url('/ingest'), { token: bad(), body: {} });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ status: 'error', code: 'rate_limit_exceeded', message: expect.stringContaining('failed authentications') });
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // A valid user token (not cached: looked up each time) is still accepted, and so is the cached key.
    expect((await request(url('/api/v1/projects'), { token: project.userToken })).status).toBe(200);
    expect((await request(url('/api/v1/projects'), { token: project.apiKey })).status).toBe(200);
    // The next minute starts clean.
    clock.advance(60_000);
    expect((await request(url('/api/v1/projects'), { token: 'evu_unknown-token-next' })).status).toBe(401);
  });

  it('throttles per key prefix across client addresses (shared in Redis by every instance)', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const throttle = new AuthThrottle(new FixedWindowCounter(redis, `af-test-${Math.random()}`, 60), 3);
      const secret = `evk_${Math.random().toString(36).slice(2, 10)}rest`;
      for (let i = 0; i < 3; i++) expect(await throttle.begin(`10.0.0.${i}`, secret)).not.toBeInstanceOf(PulseboardError);
      // A fourth address with the same prefix: over the limit.
      expect(await throttle.begin('10.0.0.9', `${secret.slice(0, 12)}other`)).toMatchObject({ code: 'rate_limit_exceeded' });
      // A slot given back (the credential was valid) is free again.
      const slot = await throttle.begin('10.0.0.10', 'evk_anotherprefix');
      expect(slot).not.toBeInstanceOf(PulseboardError);
      throttle.succeeded(slot as Exclude<typeof slot, PulseboardError>);
    } finally {
      redis.disconnect();
    }
  });

  it('answers an unknown user token from memory after its first lookup: no Postgres query each time', async () => {
    clock.advance(120_000);
    const query = vi.spyOn(gateway.deps.pool, 'query');
    try {
      // Only the token lookups count: the gateway's own background reads (the control relay,
      // the revision poll) share the pool and may land between the requests.
      const lookups = () =>
        query.mock.calls.filter(([sql]) => String(typeof sql === 'object' && sql !== null ? (sql as { text?: string }).text : sql).includes('user_tokens'))
          .length;
      const token = `evu_${Math.random().toString(36).slice(2)}`;
      expect((await request(url('/api/v1/tiles'), { token })).status).toBe(401);
      const afterFirst = lookups();
      expect(afterFirst).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) expect((await request(url('/api/v1/tiles'), { token })).status).toBe(401);
      expect(lookups()).toBe(afterFirst);
    } finally {
      query.mockRestore();
    }
  });

  it('rate-limits send and send_message per account: 429 with Retry-After past NOTIFY_SENDS_PER_MINUTE', async () => {
    clock.advance(120_000);
    const service = await request(url('/api/v1/notifications'), {
      token: project.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
    });
    expect(service.status).toBe(201);
    const id = service.body.data.id;
    expect((await request(url(`/api/v1/notifications/${id}/send`), { token: project.userToken, method: 'POST' })).status).toBe(200);
    expect((await request(url(`/api/v1/notifications/${id}/send_message`), { token: project.userToken, body: { subject: 's', body: 'b' } })).status).toBe(200);
    const third = await request(url(`/api/v1/notifications/${id}/send_message`), { token: project.userToken, body: { subject: 's', body: 'b' } });
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.any(String) } });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    await request(url(`/api/v1/notifications/${id}`), { token: project.userToken, method: 'DELETE' });
  });

  it("refuses a user token's project limits above the account's ceilings (the environment's, or the admin API's), naming the field", async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const put = (body: Record<string, unknown>) => request(url(`/api/v1/projects/${p.projectKey}`), { method: 'PUT', token: p.userToken, body });
    // The environment's ceilings (ACCOUNT_MAX_*: 1,000,000 / 10,000 / 100,000 by default).
    const high = await put({ monthly_quota: 2147483647, burst_limit: 2147483647, hourly_request_limit: 500 });
    expect(high.status).toBe(400);
    expect(high.body.error.details).toEqual({
      monthly_quota: ["must be less than or equal to 1000000 (the account's ceiling)"],
      burst_limit: ["must be less than or equal to 10000 (the account's ceiling)"],
    });
    expect((await put({ monthly_quota: 1_000_000, burst_limit: 10_000 })).status).toBe(200);
    // The operator lowers this account's ceilings; the next change above them is refused, below accepted.
    const ceilings = await request(url(`/api/v1/admin/accounts/${p.accountId}`), {
      method: 'PUT',
      token: TEST_ADMIN_TOKEN,
      body: { max_monthly_quota: 500, max_hourly_request_limit: 50 },
    });
    expect(ceilings.status).toBe(200);
    expect(ceilings.body).toMatchObject({ id: p.accountId, max_monthly_quota: 500, max_burst_limit: null, max_hourly_request_limit: 50 });
    const refused = await put({ monthly_quota: 501, hourly_request_limit: 51 });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.error.details)).toEqual(['monthly_quota', 'hourly_request_limit']);
    expect((await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.userToken })).body.data.monthly_quota).toBe(1_000_000);
    expect((await put({ monthly_quota: 500, hourly_request_limit: 50 })).status).toBe(200);
    // The admin API is not bound by them; a user token cannot set them.
    expect(
      (await request(url(`/api/v1/admin/accounts/${p.accountId}`), { method: 'PUT', token: p.userToken, body: { max_monthly_quota: 10 ** 9 } })).status,
    ).toBe(403);
    expect((await request(url('/api/v1/admin/accounts/999999999'), { method: 'PUT', token: TEST_ADMIN_TOKEN, body: { max_burst_limit: 5 } })).status).toBe(404);
  });

  it('caps tiles per project and notification services per account (409 resource_limit_reached), also under concurrent creates', async () => {
    const fresh = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, i) => request(url('/api/v1/tiles'), { token: fresh.apiKey, body: { name: `t${i}`, kind: 'metric', rule: RULE } })),
    );
    expect(creates.filter((c) => c.status === 201)).toHaveLength(3);
    const refused = creates.filter((c) => c.status !== 201);
    expect(refused.map((c) => c.status)).toEqual([409, 409, 409]);
    expect(refused[0]!.body).toEqual({ error: { code: 'resource_limit_reached', message: expect.stringContaining('3 tiles') } });
    // Deleting one makes room again.
    const tile = creates.find((c) => c.status === 201)!.body.data.id;
    expect((await request(url(`/api/v1/tiles/${tile}`), { token: fresh.apiKey, method: 'DELETE' })).status).toBeLessThan(300);
    expect((await request(url('/api/v1/tiles'), { token: fresh.apiKey, body: { name: 'again', kind: 'metric', rule: RULE } })).status).toBe(201);

    const services = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        request(url('/api/v1/notifications'), {
          token: fresh.userToken,
          body: { name: `s${i}`, type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
        }),
      ),
    );
    expect(services.map((s) => s.status).sort()).toEqual([201, 201, 409, 409]);
  });
});
