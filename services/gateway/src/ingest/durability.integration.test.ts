import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { envelope, freePort, provisionProject, readTopic, request, TEST_ADMIN_TOKEN, TEST_REDIS_URL, topicMessageCount } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';
import type { GatewayService } from '../service.ts';

/**
 * A gateway whose KAFKA_BROKERS points at a port where no broker listens (the
 * shared broker is left alone): nothing can be acknowledged, so nothing may be
 * answered 201/202, and no request may hang past the delivery timeout.
 */
describe('without a reachable Kafka broker', () => {
  let gw: GatewayService & { env: Record<string, string> };
  let project: Awaited<ReturnType<typeof provisionProject>>;

  beforeAll(async () => {
    const port = await freePort();
    gw = await startTestGateway({ KAFKA_BROKERS: `127.0.0.1:${port}`, KAFKA_DELIVERY_TIMEOUT_MS: '1500', LOG_LEVEL: 'fatal' }, { skipTopicCheck: true });
    project = await provisionProject(gw.url, TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    await gw?.stop();
  });

  // A hang would fail here instead of stalling the suite.
  const bounded = { signal: AbortSignal.timeout(20_000) };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}${path}`, {
      ...bounded,
      method: 'POST',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: await r.json(),
    }));

  it('/ingest answers 503 with Retry-After in the ingest shape, never 201, and gives back the allowance', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => post('/ingest', envelope(project.projectKey))));
    for (const res of results) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'error', code: 'service_unavailable', message: expect.any(String) });
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    const limits = (await request(`${gw.url}/api/v1/rate_limits`, { token: project.apiKey })).body.data.limits;
    expect([limits.burst_per_minute.used, limits.project_hourly_requests.used, limits.monthly_quota.used]).toEqual([0, 0, 0]);
  });

  it('/api/v1/webhooks answers 503 with Retry-After in the envelope shape, never 202', async () => {
    const res = await post('/api/v1/webhooks', { events: [envelope(project.projectKey), envelope(project.projectKey)] });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('keeps no response for a failed attempt, so the retry runs again', async () => {
    const body = envelope(project.projectKey);
    const first = await post('/ingest', body, { 'idempotency-key': 'outage-1' });
    expect(first.status).toBe(503);
    const retry = await post('/ingest', body, { 'idempotency-key': 'outage-1' });
    expect(retry.status).toBe(503);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it("a retry of a request Kafka did not acknowledge sends its events again under the first attempt's ids (the store writes an id once), then replays", async () => {
    // The first attempt's events were handed to the producer and never acknowledged: the broker may or
    // may not have written them. Its retry, here through a gateway whose broker answers, reuses their ids
    // (the store writes an id once), and the client sees the id the first attempt would have returned.
    const healthy = await startTestGateway();
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const body = { events: [envelope(project.projectKey), envelope(project.projectKey, { name: 'deploy_finished' })] };
      const key = `outage-${randomUUID()}`;
      const first = await post('/api/v1/webhooks', body, { 'idempotency-key': key });
      expect(first.status).toBe(503);
      const [entryKey] = await redis.keys(`{pbidem}:${project.projectKey}:webhooks:*`);
      const kept = (await redis.get(entryKey!))!;
      const ids = (JSON.parse(kept.slice(kept.indexOf('|', 2) + 1)) as { ids: number[] }).ids;
      expect(ids).toHaveLength(2);
      expect(await redis.ttl(entryKey!)).toBeGreaterThan(86_400 - 60);

      const headers = { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key };
      const retry = await fetch(`${healthy.url}/api/v1/webhooks`, { ...bounded, method: 'POST', headers, body: JSON.stringify(body) });
      expect(retry.status).toBe(202);
      const answer = (await retry.json()) as { events: { event_id: string }[] };
      expect(answer.events.map((e) => e.event_id)).toEqual(ids.map((id) => `evt_${id}`));
      const produced = (await readTopic(healthy.env.TOPIC_EVENTS!)).map((m) => JSON.parse(m.value!) as { id: number });
      expect(produced.map((e) => e.id)).toEqual(ids);

      // From now on the outcome is known: the answer is replayed and nothing more is produced.
      const again = await fetch(`${healthy.url}/api/v1/webhooks`, { ...bounded, method: 'POST', headers, body: JSON.stringify(body) });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(answer);
      expect(await topicMessageCount(healthy.env.TOPIC_EVENTS!)).toBe(2);
      // The same key with another body is still refused.
      const other = await fetch(`${healthy.url}/api/v1/webhooks`, {
        ...bounded,
        method: 'POST',
        headers,
        body: JSON.stringify({ events: [envelope(project.projectKey)] }),
      });
      expect(other.status).toBe(422);
    } finally {
      redis.disconnect();
      await healthy.stop();
    }
  });
});

describe('without a reachable Redis', () => {
  let gw: GatewayService & { env: Record<string, string> };
  let project: Awaited<ReturnType<typeof provisionProject>>;

  beforeAll(async () => {
    // Provisioned while Redis answers: a new credential enters the valid-credential set in Redis
    // before its row commits, so creating one without Redis is itself a 503.
    const provisioning = await startTestGateway();
    try {
      project = await provisionProject(provisioning.url, TEST_ADMIN_TOKEN);
    } finally {
      await provisioning.stop();
    }
    const port = await freePort();
    gw = await startTestGateway({ REDIS_URL: `redis://127.0.0.1:${port}/1`, LOG_LEVEL: 'fatal' });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('answers 503 with Retry-After (limits cannot be checked), never 201, never a hang', async () => {
    const before = await topicMessageCount(gw.env.TOPIC_EVENTS!);
    const bounded = { signal: AbortSignal.timeout(20_000) };
    for (const [path, shape] of [
      ['/ingest', 'ingest'],
      ['/api/v1/webhooks', 'envelope'],
    ] as const) {
      const res = await fetch(`${gw.url}${path}`, {
        ...bounded,
        method: 'POST',
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(envelope(project.projectKey)),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const body = await res.json();
      if (shape === 'ingest') expect(body).toEqual({ status: 'error', code: 'service_unavailable', message: expect.any(String) });
      else expect(body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
    }
    expect(await topicMessageCount(gw.env.TOPIC_EVENTS!)).toBe(before);
  });
});
