import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { ingestTestGateway, type IngestTestGateway } from '../../test/ingest-test-kit.ts';

/**
 * GET /api/v1/projects/:id/refusals: what the dashboard reads to say why a
 * project's tiles stand still. Counted per project from real refusals (429, 402)
 * through the real limiter and Redis.
 */
describe('refused requests, counted per project', () => {
  let gw: IngestTestGateway;
  beforeAll(async () => {
    gw = await ingestTestGateway();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const refusals = async (token: string, projectKey: string) => request(`${gw.url}/api/v1/projects/${projectKey}/refusals`, { token });

  it('counts 429s and 402s of a project with the limit that refused the latest, to its own credentials only', async () => {
    const busy = await gw.provision({ burstLimit: 2, monthlyQuota: 1_000 });
    const calm = await gw.provision();
    const none = await refusals(busy.userToken, busy.projectKey);
    expect(none.status).toBe(200);
    expect(none.body.data).toMatchObject({ project_key: busy.projectKey, count: 0, rate_limited: 0, quota_exceeded: 0, last: null });

    // A webhooks batch of 2 fills the burst of 2 events a minute: the next requests are refused.
    expect((await gw.webhook(busy, { events: [envelope(busy.projectKey), envelope(busy.projectKey)] })).status).toBe(202);
    for (let i = 0; i < 3; i++) expect((await gw.ingest(busy)).status).toBe(429);
    expect((await gw.ingest(calm)).status).toBe(201);

    await waitFor(async () => (await refusals(busy.apiKey, busy.projectKey)).body.data.count === 3, { timeoutMs: 10_000, what: 'three refusals counted' });
    const seen = (await refusals(busy.userToken, busy.projectKey)).body.data;
    expect(seen).toMatchObject({
      count: 3,
      rate_limited: 3,
      quota_exceeded: 0,
      last: { status: 429, reason: 'minute', limit: 2, message: 'per-minute burst limit of 2 events reached' },
    });
    expect(Date.now() - Date.parse(seen.last.at)).toBeLessThan(60_000);
    expect(Date.parse(seen.since)).toBeLessThanOrEqual(Date.now() - 4 * 60_000);
    expect((await refusals(calm.apiKey, calm.projectKey)).body.data.count).toBe(0);
    // Another project's key sees nothing of it: 404, as for any project not its own.
    expect((await refusals(calm.apiKey, busy.projectKey)).status).toBe(404);
  });

  it('names the monthly quota when it refused the latest (402)', async () => {
    const project = await gw.provision({ monthlyQuota: 1 });
    expect((await gw.ingest(project)).status).toBe(201);
    expect((await gw.ingest(project)).status).toBe(402);
    await waitFor(async () => (await refusals(project.userToken, project.projectKey)).body.data.count === 1, { timeoutMs: 10_000, what: 'the 402 counted' });
    expect((await refusals(project.userToken, project.projectKey)).body.data).toMatchObject({
      rate_limited: 0,
      quota_exceeded: 1,
      last: { status: 402, reason: 'monthly_quota', limit: 1, message: 'monthly quota of 1 events used up' },
    });
  });
});
