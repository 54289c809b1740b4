import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, readTopic, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { ingestTestGateway, manualClock, type IngestTestGateway, type Project } from '../../test/ingest-test-kit.ts';

// 2031-07-01 08:30:20 UTC.
const START = Date.UTC(2031, 6, 1, 8, 30, 20);
const MINUTE_END = Date.UTC(2031, 6, 1, 8, 31) / 1000;
const HOUR_END = Date.UTC(2031, 6, 1, 9) / 1000;
const clock = manualClock(START);

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EVT = /^evt_\d+$/;

function withoutKey(event: Record<string, unknown>) {
  const { project_key: _, ...rest } = event;
  return rest;
}

function limitHeaders(res: { headers: Headers }) {
  return Object.fromEntries(
    ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-burst-limit', 'x-burst-remaining', 'x-burst-reset'].map((h) => [
      h,
      res.headers.get(h),
    ]),
  );
}

describe('POST /api/v1/webhooks (spec 4.2, 5, 8; CONTRACT Webhooks endpoint)', () => {
  let gw: IngestTestGateway;

  beforeAll(async () => {
    gw = await ingestTestGateway({}, { now: clock.now });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const idsOnTopic = async (projectKey: string) =>
    (await readTopic(gw.topic)).filter((m) => m.key === projectKey).map((m) => JSON.parse(m.value!) as { id: number; name: string; project_key: string });

  it('accepts a single event: 202 accepted with evt_ id and processed_at, the six rate-limit headers, the event on Kafka', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 50, hourlyLimit: 500 });
    const res = await gw.webhook(project, envelope(project.projectKey, { name: 'deploy_started' }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', event_id: expect.stringMatching(EVT), processed_at: new Date(START).toISOString() });
    expect(res.body).not.toHaveProperty('tiles_affected');
    expect(limitHeaders(res)).toEqual({
      'x-ratelimit-limit': '500',
      'x-ratelimit-remaining': '499',
      'x-ratelimit-reset': String(HOUR_END),
      'x-burst-limit': '50',
      'x-burst-remaining': '49',
      'x-burst-reset': String(MINUTE_END),
    });
    const events = await idsOnTopic(project.projectKey);
    expect(events.map((e) => `evt_${e.id}`)).toEqual([res.body.event_id]);
    expect(events[0]).toMatchObject({ project_key: project.projectKey, name: 'deploy_started' });
  });

  it('takes the project from X-Project-Key (the event may omit project_key) or from the body alone', async () => {
    clock.set(START);
    const project = await gw.provision();
    const byHeader = await gw.webhook(project, withoutKey(envelope(project.projectKey)), { 'x-project-key': project.projectKey });
    expect(byHeader.status).toBe(202);
    const byBody = await gw.webhook(project, envelope(project.projectKey));
    expect(byBody.status).toBe(202);
    const keyOnly = await gw.webhook(project, withoutKey(envelope(project.projectKey)));
    expect(keyOnly.status).toBe(202);
    expect((await idsOnTopic(project.projectKey)).length).toBe(3);
  });

  it('accepts a batch: 202 with count, processed_at and one evt_ id per event, in order; burst counts events, the hour counts one request', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 50, hourlyLimit: 500 });
    const events = ['deploy_started', 'deploy_finished', 'deploy_failed'].map((name) => withoutKey(envelope(project.projectKey, { name })));
    const res = await gw.webhook(project, { events }, { 'x-project-key': project.projectKey });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'accepted',
      count: 3,
      processed_at: expect.stringMatching(ISO),
      events: [{ event_id: expect.stringMatching(EVT) }, { event_id: expect.stringMatching(EVT) }, { event_id: expect.stringMatching(EVT) }],
    });
    expect(limitHeaders(res)).toMatchObject({ 'x-ratelimit-remaining': '499', 'x-burst-remaining': '47' });
    const onTopic = await idsOnTopic(project.projectKey);
    const byId = new Map(onTopic.map((e) => [`evt_${e.id}`, e.name]));
    expect(res.body.events.map((e: { event_id: string }) => byId.get(e.event_id))).toEqual(['deploy_started', 'deploy_finished', 'deploy_failed']);
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used]).toEqual([3, 1, 3]);
  });

  it('accepts a batch of exactly 100 and refuses 101 (400, nothing stored)', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 1000 });
    const hundred = Array.from({ length: 100 }, (_, i) => envelope(project.projectKey, { attributes: { i } }));
    const ok = await gw.webhook(project, { events: hundred });
    expect(ok.status).toBe(202);
    expect(ok.body.count).toBe(100);
    expect(new Set(ok.body.events.map((e: { event_id: string }) => e.event_id)).size).toBe(100);

    const tooMany = await gw.expectProducedNothing(() => gw.webhook(project, { events: [...hundred, envelope(project.projectKey)] }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      error: { code: 'validation_error', message: expect.any(String), details: { events: ['is too long (maximum is 100 items)'] } },
    });
    const empty = await gw.webhook(project, { events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual({ events: ["can't be blank"] });
    const notArray = await gw.webhook(project, { events: 'x' });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error.details).toEqual({ events: ['must be an array'] });
  });

  it('refuses a batch over 100 events with 400 whatever the limits say: it can never succeed, so no client is told to wait (CONTRACT Limits)', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 5, hourlyLimit: 3 });
    const batch = (n: number) => ({ events: Array.from({ length: n }, (_, i) => envelope(project.projectKey, { attributes: { i } })) });
    expect((await gw.webhook(project, batch(2))).status).toBe(202);
    const used = async () => {
      const limits = await gw.rateLimits(project);
      return [limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used];
    };
    expect(await used()).toEqual([2, 1, 2]);

    // The minute already holds events (a batch of 101 would also overrun the burst of 5) ...
    const overLimit = await gw.expectProducedNothing(() => gw.webhook(project, batch(101)));
    expect(overLimit.status).toBe(400);
    expect(overLimit.body).toEqual({
      error: { code: 'validation_error', message: expect.any(String), details: { events: ['is too long (maximum is 100 items)'] } },
    });
    // ... and no limit was looked at: no rate-limit headers, nothing consumed.
    expect(overLimit.headers.get('retry-after')).toBeNull();
    expect(overLimit.headers.get('x-burst-remaining')).toBeNull();
    expect(await used()).toEqual([2, 1, 2]);

    // With the burst and the hour used up, a fitting batch is 429 and a batch over 100 still 400.
    expect((await gw.webhook(project, batch(3))).status).toBe(202);
    expect((await gw.webhook(project, batch(1))).status).toBe(429);
    const exhausted = await gw.webhook(project, { events: [...batch(150).events.slice(0, 149), { type: 'nope' }] });
    expect(exhausted.status).toBe(400);
    expect(exhausted.body.error.details).toEqual({
      events: ['is too long (maximum is 100 items)'],
      'events[149].type': ['is not included in the list'],
      'events[149].name': ["can't be blank"],
      'events[149].timestamp': ["can't be blank"],
      'events[149].attributes': ["can't be blank"],
    });
  });

  it('validates a batch all or nothing: 400 with details keyed events[i].field, nothing produced or counted', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 50 });
    const events = [
      envelope(project.projectKey),
      envelope(project.projectKey, { type: 'weather' }),
      { type: 'metric', name: 'cpu_usage', timestamp: 'yesterday', attributes: 3 },
      'not an event',
    ];
    const res = await gw.expectProducedNothing(() => gw.webhook(project, { events }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: 'validation_error',
        message: expect.any(String),
        details: {
          'events[1].type': ['is not included in the list'],
          'events[2].timestamp': ['is not a valid ISO 8601 timestamp'],
          'events[2].attributes': ['must be an object'],
          'events[3]': ['must be an object'],
        },
      },
    });
    // Limits were checked (and are reported) but nothing was consumed.
    expect(limitHeaders(res)).toMatchObject({ 'x-burst-remaining': '50', 'x-ratelimit-remaining': '1000' });
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.monthly_quota.used]).toEqual([0, 0]);
  });

  it('400 for an invalid single event, in the envelope shape', async () => {
    const project = await gw.provision();
    const res = await gw.expectProducedNothing(() => gw.webhook(project, { project_key: project.projectKey, type: 'metric', attributes: {} }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { code: 'validation_error', message: expect.any(String), details: { name: ["can't be blank"], timestamp: ["can't be blank"] } },
    });
  });

  it('counts every event of a batch against the burst: 429 with Retry-After and headers, a refused batch consumes nothing', async () => {
    clock.set(START);
    const project = await gw.provision({ burstLimit: 50, hourlyLimit: 500 });
    const batch = (n: number) => ({ events: Array.from({ length: n }, () => envelope(project.projectKey)) });
    expect((await gw.webhook(project, batch(40))).status).toBe(202);
    const refused = await gw.expectProducedNothing(() => gw.webhook(project, batch(20)));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.any(String) } });
    expect(refused.headers.get('retry-after')).toBe(String(MINUTE_END - START / 1000));
    expect(limitHeaders(refused)).toEqual({
      'x-ratelimit-limit': '500',
      'x-ratelimit-remaining': '499',
      'x-ratelimit-reset': String(HOUR_END),
      'x-burst-limit': '50',
      'x-burst-remaining': '10',
      'x-burst-reset': String(MINUTE_END),
    });
    const fits = await gw.webhook(project, batch(10));
    expect(fits.status).toBe(202);
    expect(fits.headers.get('x-burst-remaining')).toBe('0');
  });

  it('counts every event of a batch against the monthly quota: 402 quota_exceeded', async () => {
    clock.set(START);
    const project = await gw.provision({ monthlyQuota: 5 });
    const batch = (n: number) => ({ events: Array.from({ length: n }, () => envelope(project.projectKey)) });
    expect((await gw.webhook(project, batch(4))).status).toBe(202);
    const refused = await gw.expectProducedNothing(() => gw.webhook(project, batch(2)));
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: { code: 'quota_exceeded', message: expect.stringMatching(/quota/) } });
    expect(refused.headers.get('x-burst-remaining')).toBe('96');
    expect((await gw.webhook(project, batch(1))).status).toBe(202);
  });

  it('401 without a key or with an invalid one, in the envelope shape', async () => {
    const project = await gw.provision();
    const none = await request(`${gw.url}/api/v1/webhooks`, { body: envelope(project.projectKey), headers: { 'x-project-key': project.projectKey } });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'authentication_required', message: expect.any(String) } });
    const invalid = await request(`${gw.url}/api/v1/webhooks`, { token: 'evk_invalid', body: envelope(project.projectKey) });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ error: { code: 'invalid_api_key', message: expect.any(String) } });
  });

  it('403 when the key belongs to another project than X-Project-Key, the body or an event of the batch names', async () => {
    const project = await gw.provision();
    const other = await gw.provision();
    const attempts = [
      () => gw.webhook(project, withoutKey(envelope(project.projectKey)), { 'x-project-key': other.projectKey }),
      () => gw.webhook(project, envelope(other.projectKey)),
      () => gw.webhook(project, envelope(other.projectKey), { 'x-project-key': project.projectKey }),
      () => gw.webhook(project, { project_key: other.projectKey, events: [withoutKey(envelope(project.projectKey))] }),
      () => gw.webhook(project, { events: [envelope(project.projectKey), envelope(other.projectKey)] }),
    ];
    await gw.expectProducedNothing(async () => {
      for (const attempt of attempts) {
        const res = await attempt();
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: { code: 'forbidden', message: expect.stringMatching(/not the project of the API key/) } });
      }
    });
  });

  it('403 api_key_required for a user token; 404 project_not_found for a deleted project', async () => {
    const project: Project = await gw.provision();
    const user = await request(`${gw.url}/api/v1/webhooks`, { token: project.userToken, body: envelope(project.projectKey) });
    expect(user.status).toBe(403);
    expect(user.body).toEqual({ error: { code: 'api_key_required', message: expect.any(String) } });
    await request(`${gw.url}/api/v1/admin/projects/${project.projectKey}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN });
    const gone = await gw.webhook(project, envelope(project.projectKey));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'project_not_found', message: expect.any(String) } });
  });
});
