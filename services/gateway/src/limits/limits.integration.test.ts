import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, spawnService, TEST_ADMIN_TOKEN, TEST_DATABASE_URL, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { expectBurstHourlyQuotaWalk, ingestTestGateway, manualClock, privateHour, type IngestTestGateway } from '../../test/ingest-test-kit.ts';

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
});

async function gateway(env: Record<string, string>, now?: () => number): Promise<IngestTestGateway> {
  const gw = await ingestTestGateway(env, now === undefined ? {} : { now });
  stops.push(() => gw.stop());
  return gw;
}

describe('limits configured by environment', () => {
  it('applies DEFAULT_BURST_LIMIT, DEFAULT_PROJECT_HOURLY_LIMIT and DEFAULT_MONTHLY_QUOTA to projects without their own', async () => {
    const clock = manualClock(privateHour() + 5_000);
    const gw = await gateway({ DEFAULT_BURST_LIMIT: '3', DEFAULT_PROJECT_HOURLY_LIMIT: '4', DEFAULT_MONTHLY_QUOTA: '5' }, clock.now);
    const project = await gw.provision();
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.limit, limits.project_hourly_requests.limit, limits.monthly_quota.limit]).toEqual([3, 4, 5]);

    await expectBurstHourlyQuotaWalk(gw, project, clock);
  });

  it("limits an account across its projects (DEFAULT_ACCOUNT_HOURLY_LIMIT, or the account's own)", async () => {
    const clock = manualClock(privateHour() + 5_000);
    const gw = await gateway({ DEFAULT_ACCOUNT_HOURLY_LIMIT: '3' }, clock.now);
    const first = await gw.provision();
    const second = await request(`${gw.url}/api/v1/admin/accounts/${first.accountId}/projects`, {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: `acct-${Math.random().toString(36).slice(2, 10)}`, name: 'second' },
    });
    const send = (key: string, apiKey: string) => request(`${gw.url}/ingest`, { token: apiKey, body: envelope(key) });
    expect((await send(first.projectKey, first.apiKey)).status).toBe(201);
    expect((await send(second.body.project_key, second.body.api_key)).status).toBe(201);
    expect((await send(first.projectKey, first.apiKey)).status).toBe(201);
    const refused = await send(second.body.project_key, second.body.api_key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', rate_limit: 3, current_usage: 3 });

    // An account with a limit of its own.
    const account = await request(`${gw.url}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN, body: { name: 'big account', hourly_request_limit: 5 } });
    const own = await request(`${gw.url}/api/v1/admin/accounts/${account.body.id}/projects`, {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: `acct-${Math.random().toString(36).slice(2, 10)}`, name: 'own' },
    });
    for (let i = 0; i < 5; i++) expect((await send(own.body.project_key, own.body.api_key)).status).toBe(201);
    expect((await send(own.body.project_key, own.body.api_key)).body).toMatchObject({ rate_limit: 5, current_usage: 5 });
  });

  it('limits all requests system-wide per hour (GLOBAL_HOURLY_LIMIT), until the next hour', async () => {
    const clock = manualClock(privateHour() + 5_000);
    const gw = await gateway({ GLOBAL_HOURLY_LIMIT: '4' }, clock.now);
    const a = await gw.provision();
    const b = await gw.provision();
    expect((await gw.ingest(a)).status).toBe(201);
    expect((await gw.ingest(b)).status).toBe(201);
    expect((await gw.webhook(a, envelope(a.projectKey))).status).toBe(202);
    expect((await gw.ingest(b)).status).toBe(201);
    const refused = await gw.ingest(a);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ rate_limit: 4, current_usage: 4, retry_after: 3595 });
    const webhook = await gw.webhook(b, envelope(b.projectKey));
    expect(webhook.status).toBe(429);
    expect(webhook.headers.get('retry-after')).toBe('3595');
    clock.advance(3_600_000);
    expect((await gw.ingest(a)).status).toBe(201);
  });
});

describe('concurrent requests are decided atomically', () => {
  it('lets exactly the burst through when many requests race, and counts exactly what was accepted', async () => {
    const clock = manualClock(privateHour() + 5_000);
    const gw = await gateway({}, clock.now);
    const project = await gw.provision({ burstLimit: 10 });
    const results = await Promise.all(Array.from({ length: 40 }, () => gw.ingest(project)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used]).toEqual([10, 10, 10]);
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.event_id)).size).toBe(10);
  });

  it('never accepts part of a batch: racing batches fill the burst only with whole batches', async () => {
    const clock = manualClock(privateHour() + 5_000);
    const gw = await gateway({}, clock.now);
    const project = await gw.provision({ burstLimit: 100 });
    const batch = { events: Array.from({ length: 30 }, () => envelope(project.projectKey)) };
    const results = await Promise.all(Array.from({ length: 8 }, () => gw.webhook(project, batch)));
    expect(results.filter((r) => r.status === 202).length).toBe(3);
    expect(results.filter((r) => r.status === 429).length).toBe(5);
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.monthly_quota.used]).toEqual([90, 90]);
  });
});

describe('quota counters survive losing Redis', () => {
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  stops.push(() => db.end());

  it("re-seeds a lost quota counter from the store's count in Postgres, never from zero, and still enforces the quota", async () => {
    const gw = await gateway({});
    const store: ServiceProcess = await spawnService('store', gw.env);
    stops.push(() => store.kill('SIGTERM'));
    const project = await gw.provision({ monthlyQuota: 8 });
    for (let i = 1; i <= 5; i++) expect((await gw.ingest(project)).body.quota_used).toBe(i);
    await waitFor(
      async () =>
        Number(
          (await db.query('SELECT coalesce(sum(event_count), 0) AS n FROM project_monthly_usage WHERE project_key = $1', [project.projectKey])).rows[0].n,
        ) === 5,
      { what: 'the store to count 5 events' },
    );

    // What a Redis restart loses for this project: its quota counter and its revision marker.
    // (Only this project's keys: other tests share database 1.)
    const lost = [...(await gw.redis.keys(`{pbrl}:q:${project.projectKey}:*`)), `{pbrl}:rev:${project.projectKey}`];
    expect(lost.length).toBe(2);
    expect(await gw.redis.del(...lost)).toBe(2);

    const after = await gw.ingest(project);
    expect(after.status).toBe(201);
    expect(after.body.quota_used).toBe(6);
    expect((await gw.ingest(project)).body.quota_used).toBe(7);
    expect((await gw.ingest(project)).body.quota_used).toBe(8);
    const refused = await gw.ingest(project);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ quota_limit: 8, quota_used: 8 });
  });
});
