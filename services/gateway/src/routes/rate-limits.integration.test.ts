import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { ingestTestGateway, manualClock, privateHour, type IngestTestGateway } from '../../test/ingest-test-kit.ts';

// A private hour, 10 min 30 s in: the account and global counters start at zero here.
const START = privateHour() + 630_500;
const MINUTE_END = Math.floor(START / 60_000) * 60 + 60;
const HOUR_END = Math.floor(START / 3_600_000) * 3600 + 3600;
const d = new Date(START);
const MONTH_END = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
const clock = manualClock(START);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('GET /api/v1/rate_limits and GET /api/v1/health', () => {
  let gw: IngestTestGateway;

  beforeAll(async () => {
    gw = await ingestTestGateway({ GLOBAL_HOURLY_LIMIT: '9000', DEFAULT_ACCOUNT_HOURLY_LIMIT: '4000' }, { now: clock.now });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('shows a project key every limit of its project: limit, used, remaining, reset; reading consumes nothing', async () => {
    const project = await gw.provision({ burstLimit: 60, hourlyLimit: 700, monthlyQuota: 5000 });
    expect((await gw.ingest(project)).status).toBe(201);
    expect((await gw.ingest(project)).status).toBe(201);
    expect((await gw.webhook(project, { events: [envelope(project.projectKey), envelope(project.projectKey), envelope(project.projectKey)] })).status).toBe(
      202,
    );

    for (let read = 0; read < 2; read++) {
      const res = await request(`${gw.url}/api/v1/rate_limits`, { token: project.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          project_key: project.projectKey,
          limits: {
            burst_per_minute: { limit: 60, used: 5, remaining: 55, reset: MINUTE_END, reset_at: iso(MINUTE_END), counts: 'events' },
            project_hourly_requests: { limit: 700, used: 3, remaining: 697, reset: HOUR_END, reset_at: iso(HOUR_END), counts: 'requests' },
            account_hourly_requests: { limit: 4000, used: 3, remaining: 3997, reset: HOUR_END, reset_at: iso(HOUR_END), counts: 'requests' },
            monthly_quota: { limit: 5000, used: 5, remaining: 4995, reset: MONTH_END, reset_at: iso(MONTH_END), counts: 'events' },
          },
        },
      });
    }
    // The system-wide window (every tenant's traffic) is not a tenant's to see, with either credential.
    const asUser = await request(`${gw.url}/api/v1/rate_limits`, { token: project.userToken });
    expect(asUser.body.data.map((r: { limits: object }) => Object.keys(r.limits))).toEqual([
      ['burst_per_minute', 'project_hourly_requests', 'account_hourly_requests', 'monthly_quota'],
    ]);
    const other = await request(`${gw.url}/api/v1/rate_limits?project_key=someone-else`, { token: project.apiKey });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('shows a user token every project of its account, ordered by key, and narrows with ?project_key=', async () => {
    const first = await gw.provision({ projectKey: `rl-b-${Math.random().toString(36).slice(2, 8)}` });
    const second = await request(`${gw.url}/api/v1/admin/accounts/${first.accountId}/projects`, {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: `rl-a-${Math.random().toString(36).slice(2, 8)}`, name: 'second', monthly_quota: 20 },
    });
    expect(second.status).toBe(201);
    const secondKey = second.body.project_key as string;
    expect((await request(`${gw.url}/ingest`, { token: second.body.api_key, body: envelope(secondKey) })).status).toBe(201);
    const stranger = await gw.provision();

    const all = await request(`${gw.url}/api/v1/rate_limits`, { token: first.userToken });
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: { project_key: string }) => p.project_key)).toEqual([secondKey, first.projectKey]);
    expect(all.body.data[0].limits.monthly_quota).toMatchObject({ limit: 20, used: 1, remaining: 19 });
    expect(all.body.data[1].limits.monthly_quota).toMatchObject({ limit: 10000, used: 0 });

    const one = await request(`${gw.url}/api/v1/rate_limits?project_key=${first.projectKey}`, { token: first.userToken });
    expect(one.body.data.map((p: { project_key: string }) => p.project_key)).toEqual([first.projectKey]);
    const foreign = await request(`${gw.url}/api/v1/rate_limits?project_key=${stranger.projectKey}`, { token: first.userToken });
    expect(foreign.status).toBe(404);
  });

  it('401 without or with an invalid credential', async () => {
    const none = await request(`${gw.url}/api/v1/rate_limits`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'authentication_required', message: expect.any(String) } });
    const invalid = await request(`${gw.url}/api/v1/rate_limits`, { token: 'evk_nope' });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ error: { code: 'invalid_api_key', message: expect.any(String) } });
  });

  it('health: 200 {status: ok, project, timestamp} for a project key (spec 4.4); 401 without or with an invalid key', async () => {
    const project = await gw.provision();
    const res = await request(`${gw.url}/api/v1/health`, { token: project.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', project: project.projectKey, timestamp: new Date(START).toISOString() });
    const none = await request(`${gw.url}/api/v1/health`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'authentication_required', message: expect.any(String) } });
    const invalid = await request(`${gw.url}/api/v1/health`, { token: 'evk_nope' });
    expect(invalid.status).toBe(401);
    expect(invalid.body.error.code).toBe('invalid_api_key');
  });
});
