import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, readTopic, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { ingestTestGateway, manualClock, type IngestTestGateway } from '../../test/ingest-test-kit.ts';

// 2031-05-10 12:00:15.500 UTC: 44.5 s left in the minute, 59:44.5 in the hour.
const START = Date.UTC(2031, 4, 10, 12, 0, 15, 500);
const clock = manualClock(START);

describe('POST /ingest (spec 4.1, 5, 7, 8)', () => {
  let gw: IngestTestGateway;

  beforeAll(async () => {
    gw = await ingestTestGateway({}, { now: clock.now });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('answers 201 with the spec 4.1 body after Kafka has the event, keyed by project', async () => {
    clock.set(START);
    const project = await gw.provision();
    const sent = envelope(project.projectKey, { severity: 'warn', labels: ['a'], unknown_field: 'dropped' });
    const res = await gw.ingest(project, sent);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'accepted',
      event_id: expect.any(Number),
      message: expect.any(String),
      quota_used: 1,
      quota_limit: 10000,
      rate_limit_remaining: 99,
    });
    expect(Number.isSafeInteger(res.body.event_id)).toBe(true);
    const messages = await readTopic(gw.topic);
    const mine = messages.find((m) => m.headers['pb-event-id'] === String(res.body.event_id));
    expect(mine?.key).toBe(project.projectKey);
    expect(JSON.parse(mine!.value!)).toEqual({
      id: res.body.event_id,
      project_key: project.projectKey,
      account_id: project.accountId,
      type: sent.type,
      name: sent.name,
      timestamp: sent.timestamp,
      received_at: new Date(START).toISOString(),
      attributes: sent.attributes,
      severity: 'warn',
      labels: ['a'],
    });
  });

  it('counts down rate_limit_remaining and counts up quota_used', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 5, monthlyQuota: 50 });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw.ingest(project);
      seen.push([res.body.rate_limit_remaining, res.body.quota_used, res.body.quota_limit]);
    }
    expect(seen).toEqual([
      [4, 1, 50],
      [3, 2, 50],
      [2, 3, 50],
    ]);
  });

  it('401 authentication_required without a key, in the ingest shape', async () => {
    const project = await gw.provision();
    const res = await request(`${gw.url}/ingest`, { body: envelope(project.projectKey) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', code: 'authentication_required', message: expect.stringMatching(/API key is required/) });
    const basic = await request(`${gw.url}/ingest`, { body: envelope(project.projectKey), headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    expect(basic.body.code).toBe('authentication_required');
  });

  it('401 invalid_api_key for an unknown, malformed or truncated key', async () => {
    const project = await gw.provision();
    for (const token of ['evk_not-a-real-key', 'nonsense', project.apiKey.slice(0, -1)]) {
      const res = await request(`${gw.url}/ingest`, { token, body: envelope(project.projectKey) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', code: 'invalid_api_key', message: expect.any(String) });
    }
  });

  it('403 api_key_required for a valid user token; 401 for an unknown one', async () => {
    const project = await gw.provision();
    const user = await request(`${gw.url}/ingest`, { token: project.userToken, body: envelope(project.projectKey) });
    expect(user.status).toBe(403);
    expect(user.body).toEqual({ status: 'error', code: 'api_key_required', message: expect.any(String) });
    const unknown = await request(`${gw.url}/ingest`, { token: 'evu_unknown', body: envelope(project.projectKey) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('invalid_api_key');
  });

  it("404 project_not_found once the key's project is deleted", async () => {
    const project = await gw.provision();
    expect((await gw.ingest(project)).status).toBe(201);
    const deleted = await request(`${gw.url}/api/v1/admin/projects/${project.projectKey}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN });
    expect(deleted.status).toBe(204);
    const res = await gw.ingest(project);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', code: 'project_not_found', message: expect.any(String) });
  });

  it("403 when the body's project_key is another project, and nothing is produced or counted", async () => {
    clock.set(START);
    const project = await gw.provision();
    const other = await gw.provision();
    const res = await gw.expectProducedNothing(() => gw.ingest(project, envelope(other.projectKey)));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 'error', code: 'forbidden', message: expect.stringMatching(/differs/) });
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.monthly_quota.used]).toEqual([0, 0]);
  });

  it('400 validation_error with details; an invalid event consumes nothing', async () => {
    clock.set(START);
    const project = await gw.provision();
    const res = await gw.expectProducedNothing(() =>
      gw.ingest(project, { project_key: project.projectKey, type: 'nope', timestamp: '2024-13-45', attributes: [], severity: 'loud', labels: [1] }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      code: 'validation_error',
      message: expect.any(String),
      details: {
        type: ['is not included in the list'],
        name: ["can't be blank"],
        timestamp: ['is not a valid ISO 8601 timestamp'],
        attributes: ['must be an object'],
        severity: ['is not included in the list'],
        labels: ['must be an array of strings'],
      },
    });
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used]).toEqual([0, 0, 0]);
  });

  it('429 past the per-minute burst: exact body, Retry-After, nothing consumed or produced; the next minute accepts again', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await gw.ingest(project)).status).toBe(201);

    const refused = await gw.expectProducedNothing(() => gw.ingest(project));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 'error',
      code: 'rate_limit_exceeded',
      message: expect.any(String),
      rate_limit: 3,
      current_usage: 3,
      retry_after: 45,
    });
    expect(refused.headers.get('retry-after')).toBe('45');
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used]).toEqual([3, 3, 3]);

    // Rate limits come before validation: an invalid event at the limit is told to wait.
    const invalidAtLimit = await gw.ingest(project, { project_key: project.projectKey });
    expect(invalidAtLimit.status).toBe(429);

    clock.set(Date.UTC(2031, 4, 10, 12, 0, 59, 999));
    expect((await gw.ingest(project)).body.retry_after).toBe(1);
    clock.set(Date.UTC(2031, 4, 10, 12, 1, 0, 0));
    const next = await gw.ingest(project);
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ rate_limit_remaining: 2, quota_used: 4 });
  });

  it('429 past the hourly request limit of the project, until the next hour', async () => {
    clock.set(START);
    const project = await gw.provision({ hourlyLimit: 2, burstLimit: 100 });
    expect((await gw.ingest(project)).status).toBe(201);
    clock.advance(60_000); // another minute, same hour
    expect((await gw.ingest(project)).status).toBe(201);
    const refused = await gw.ingest(project);
    expect(refused.status).toBe(429);
    const secondsToHourEnd = (Date.UTC(2031, 4, 10, 13) - Math.floor(clock.now() / 1000) * 1000) / 1000;
    expect(refused.body).toEqual({
      status: 'error',
      code: 'rate_limit_exceeded',
      message: expect.any(String),
      rate_limit: 2,
      current_usage: 2,
      retry_after: secondsToHourEnd,
    });
    expect(refused.headers.get('retry-after')).toBe(String(secondsToHourEnd));
    clock.set(Date.UTC(2031, 4, 10, 13, 0, 0));
    expect((await gw.ingest(project)).status).toBe(201);
  });

  it('402 when the monthly quota is used up: exact body, nothing consumed; the next month accepts again', async () => {
    clock.set(START);
    const project = await gw.provision({ monthlyQuota: 2 });
    expect((await gw.ingest(project)).status).toBe(201);
    expect((await gw.ingest(project)).status).toBe(201);
    const refused = await gw.expectProducedNothing(() => gw.ingest(project));
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      status: 'error',
      code: 'quota_exceeded',
      message: expect.any(String),
      quota_limit: 2,
      quota_used: 2,
      quota_reset_at: '2031-06-01T00:00:00.000Z',
    });
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.monthly_quota.used]).toEqual([2, 2]);

    clock.set(Date.UTC(2031, 5, 1, 0, 0, 0));
    const next = await gw.ingest(project);
    expect(next.status).toBe(201);
    expect(next.body.quota_used).toBe(1);
  });

  it('429 (rate limits) wins over 402 (quota) when both are exhausted', async () => {
    clock.set(START);
    const project = await gw.provision({ monthlyQuota: 1, burstLimit: 1 });
    expect((await gw.ingest(project)).status).toBe(201);
    expect((await gw.ingest(project)).status).toBe(429);
  });
});
