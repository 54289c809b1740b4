import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

describe('projects API: read, update, regenerate the key', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('lists and reads the caller’s projects with the limits in force', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN, { monthlyQuota: 5000 });
    const second = await request(url(`/api/v1/admin/accounts/${p.accountId}/projects`), {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: `${p.projectKey}-b`, name: 'Second' },
    });
    expect(second.status).toBe(201);

    const byUser = await request(url('/api/v1/projects'), { token: p.userToken });
    expect(byUser.status).toBe(200);
    expect(byUser.body.data.map((x: { project_key: string }) => x.project_key)).toEqual([p.projectKey, `${p.projectKey}-b`]);
    expect(byUser.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 2, per_page: 25 });

    const byKey = await request(url('/api/v1/projects'), { token: p.apiKey });
    expect(byKey.body.data.map((x: { project_key: string }) => x.project_key)).toEqual([p.projectKey]);
    expect(byKey.body.meta.total_count).toBe(1);

    const one = await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.apiKey });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      id: p.projectKey,
      project_key: p.projectKey,
      account_id: p.accountId,
      name: `Project ${p.projectKey}`,
      api_key_prefix: p.apiKey.slice(0, 10),
      monthly_quota: 5000,
      burst_limit: null,
      hourly_request_limit: null,
      retention_days: null,
      limits: { burst_per_minute: 100, project_hourly_requests: 1000, monthly_quota: 5000, retention_days: 30 },
      settings: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // How far behind live its tiles are: tests/e2e/freshness.integration.test.ts.
      freshness: expect.objectContaining({ status: expect.any(String), measured_at: expect.any(String) }),
    });
    expect(JSON.stringify(one.body)).not.toContain(p.apiKey);

    const paged = await request(url('/api/v1/projects?per_page=1&page=2'), { token: p.userToken });
    expect(paged.body.data.map((x: { project_key: string }) => x.project_key)).toEqual([`${p.projectKey}-b`]);
    expect(paged.body.meta).toEqual({ current_page: 2, total_pages: 2, total_count: 2, per_page: 1 });
  });

  it('updates name, settings and limits with a user token; a limit change applies to the very next ingest', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    expect((await request(url('/ingest'), { token: p.apiKey, body: envelope(p.projectKey) })).status).toBe(201);

    const put = await request(url(`/api/v1/projects/${p.projectKey}`), {
      method: 'PUT',
      token: p.userToken,
      body: { name: 'Renamed', settings: { theme: 'dark' }, burst_limit: 1, monthly_quota: 50, hourly_request_limit: 500, retention_days: 7 },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      name: 'Renamed',
      settings: { theme: 'dark' },
      monthly_quota: 50,
      burst_limit: 1,
      hourly_request_limit: 500,
      retention_days: 7,
      limits: { burst_per_minute: 1, project_hourly_requests: 500, monthly_quota: 50, retention_days: 7 },
    });
    // One event was already counted in this minute, and the burst limit is now 1.
    const limited = await request(url('/ingest'), { token: p.apiKey, body: envelope(p.projectKey) });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 'error', rate_limit: 1 });

    const reset = await request(url(`/api/v1/projects/${p.projectKey}`), { method: 'PUT', token: p.userToken, body: { burst_limit: null } });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ burst_limit: null, limits: { burst_per_minute: 100 } });
    expect((await request(url('/ingest'), { token: p.apiKey, body: envelope(p.projectKey) })).status).toBe(201);
    expect((await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.userToken })).body.data.name).toBe('Renamed');
  });

  it('lets a project key rename its project but not change its limits (403 user_token_required)', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const rename = await request(url(`/api/v1/projects/${p.projectKey}`), { method: 'PUT', token: p.apiKey, body: { name: 'By key' } });
    expect(rename.status).toBe(200);
    expect(rename.body.data.name).toBe('By key');
    for (const body of [{ monthly_quota: 1 }, { burst_limit: 5 }, { hourly_request_limit: 5 }, { retention_days: 1 }, { name: 'x', burst_limit: null }]) {
      const res = await request(url(`/api/v1/projects/${p.projectKey}`), { method: 'PUT', token: p.apiKey, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { code: 'user_token_required', message: expect.any(String) } });
    }
    expect((await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.apiKey })).body.data).toMatchObject({
      name: 'By key',
      monthly_quota: 10000,
      burst_limit: null,
    });
  });

  it('answers an invalid update 400 validation_error with details per field, changing nothing', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const bad = await request(url(`/api/v1/projects/${p.projectKey}`), {
      method: 'PUT',
      token: p.userToken,
      body: { name: '', monthly_quota: -1, burst_limit: 'many', hourly_request_limit: 0, retention_days: 3651, settings: [], api_key: 'evk_x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: {
        code: 'validation_error',
        message: expect.any(String),
        details: {
          name: ["can't be blank"],
          monthly_quota: ['must be greater than or equal to 0'],
          burst_limit: ['must be an integer or null'],
          hourly_request_limit: ['must be greater than or equal to 1'],
          retention_days: ['must be less than or equal to 400'],
          settings: ['must be an object'],
          api_key: ['is not a known field'],
        },
      },
    });
    const empty = await request(url(`/api/v1/projects/${p.projectKey}`), { method: 'PUT', token: p.userToken, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('validation_error');
    expect(empty.body.error.details.base).toEqual([expect.stringContaining('at least one')]);
    const notJson = await request(url(`/api/v1/projects/${p.projectKey}`), {
      method: 'PUT',
      token: p.userToken,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect((await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.userToken })).body.data.name).toBe(`Project ${p.projectKey}`);
  });

  it('regenerates the key only with a user token and {"confirm": true}; the old key is refused on the next request', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const path = url(`/api/v1/projects/${p.projectKey}/regenerate_key`);
    // Warm this gateway's cache with the old key, on both the ingest and the read path.
    expect((await request(url('/ingest'), { token: p.apiKey, body: envelope(p.projectKey) })).status).toBe(201);
    expect((await request(url('/api/v1/events'), { token: p.apiKey })).status).toBe(200);

    for (const body of [{}, { confirm: false }, { confirm: 'yes' }]) {
      const res = await request(path, { token: p.userToken, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(Object.keys(res.body.error.details)).toEqual(['confirm']);
    }
    const byKey = await request(path, { token: p.apiKey, body: { confirm: true } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('user_token_required');
    // None of the refusals changed the key.
    expect((await request(url('/api/v1/health'), { token: p.apiKey })).status).toBe(200);

    const res = await request(path, { token: p.userToken, body: { confirm: true } });
    expect(res.status).toBe(200);
    const newKey = res.body.data.api_key as string;
    expect(newKey).toMatch(/^evk_[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(p.apiKey);
    expect(res.body.data.api_key_prefix).toBe(newKey.slice(0, 10));

    const oldIngest = await request(url('/ingest'), { token: p.apiKey, body: envelope(p.projectKey) });
    expect(oldIngest.status).toBe(401);
    expect(oldIngest.body).toMatchObject({ status: 'error' });
    const oldRead = await request(url('/api/v1/events'), { token: p.apiKey });
    expect(oldRead.status).toBe(401);
    expect(oldRead.body.error.code).toBe('invalid_api_key');
    expect((await request(url('/ingest'), { token: newKey, body: envelope(p.projectKey) })).status).toBe(201);
    expect((await request(url(`/api/v1/projects/${p.projectKey}`), { token: newKey })).status).toBe(200);
    // Shown once: reading the project never returns it.
    expect(JSON.stringify((await request(url(`/api/v1/projects/${p.projectKey}`), { token: p.userToken })).body)).not.toContain(newKey);
  });
});
