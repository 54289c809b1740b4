import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request } from '@pulseboard/test-kit';
import { ingestTestGateway, manualClock, type IngestTestGateway } from '../../test/ingest-test-kit.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2031, 6, 15, 12, 0, 0, 0);
const clock = manualClock(NOW);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the timestamp window (CONTRACT Events, Retention) on /ingest and webhooks', () => {
  let gw: IngestTestGateway;

  beforeAll(async () => {
    gw = await ingestTestGateway({ EVENT_RETENTION_DAYS: '30' }, { now: clock.now });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('accepts both edges on /ingest and refuses one millisecond beyond either, storing nothing', async () => {
    clock.set(NOW);
    const project = await gw.provision({ burstLimit: 1000 });
    for (const at of [NOW - 30 * DAY, NOW + DAY, NOW]) {
      expect((await gw.ingest(project, envelope(project.projectKey, { timestamp: iso(at) }))).status).toBe(201);
    }
    // A timestamp without an offset is UTC.
    expect((await gw.ingest(project, envelope(project.projectKey, { timestamp: iso(NOW - 30 * DAY).slice(0, -1) }))).status).toBe(201);
    const past = await gw.expectProducedNothing(() => gw.ingest(project, envelope(project.projectKey, { timestamp: iso(NOW - 30 * DAY - 1) })));
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ status: 'error', code: 'validation_error', details: { timestamp: ['is too far in the past'] } });
    const future = await gw.expectProducedNothing(() => gw.ingest(project, envelope(project.projectKey, { timestamp: iso(NOW + DAY + 1) })));
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({ details: { timestamp: ['is too far in the future'] } });
    // Refused requests use no quota.
    expect((await gw.rateLimits(project)).monthly_quota.used).toBe(4);
  });

  it('keys a batch by event and refuses it whole; a single webhook event by `timestamp`', async () => {
    clock.set(NOW);
    const project = await gw.provision();
    const ok = { type: 'metric', name: 'cpu', attributes: { value: 1 } };
    const batch = {
      events: [
        { ...ok, timestamp: iso(NOW) },
        { ...ok, timestamp: iso(NOW - 31 * DAY) },
        { ...ok, timestamp: iso(NOW + 2 * DAY) },
      ],
    };
    const res = await gw.expectProducedNothing(() => gw.webhook(project, batch));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'validation_error',
      message: expect.any(String),
      details: { 'events[1].timestamp': ['is too far in the past'], 'events[2].timestamp': ['is too far in the future'] },
    });
    const single = await gw.webhook(project, { ...ok, timestamp: iso(NOW - 40 * DAY) });
    expect(single.status).toBe(400);
    expect(single.body.error.details).toEqual({ timestamp: ['is too far in the past'] });
    // 202: no rule engine here to wait for; accepted all the same.
    expect((await gw.webhook(project, { events: [{ ...ok, timestamp: iso(NOW - 29 * DAY) }] })).status).toBe(202);
  });

  it("follows the project's own retention_days, changed through the API, from the very next request", async () => {
    clock.set(NOW);
    const project = await gw.provision({ retentionDays: 90 });
    const sixtyDaysAgo = envelope(project.projectKey, { timestamp: iso(NOW - 60 * DAY) });
    expect((await gw.ingest(project, sixtyDaysAgo)).status).toBe(201);
    const put = await request(`${gw.url}/api/v1/projects/${project.projectKey}`, { method: 'PUT', token: project.userToken, body: { retention_days: 7 } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ retention_days: 7, limits: { retention_days: 7 } });
    const refused = await gw.ingest(project, envelope(project.projectKey, { timestamp: iso(NOW - 8 * DAY) }));
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual({ timestamp: ['is too far in the past'] });
    expect((await gw.ingest(project, envelope(project.projectKey, { timestamp: iso(NOW - 7 * DAY) }))).status).toBe(201);
  });
});
