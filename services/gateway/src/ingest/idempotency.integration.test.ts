import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, envelope, readTopic } from '@pulseboard/test-kit';
import { ingestTestGateway, type IngestTestGateway } from '../../test/ingest-test-kit.ts';
import { IdempotencyStore } from './idempotency.ts';

describe('Idempotency-Key on /ingest and /api/v1/webhooks', () => {
  let gw: IngestTestGateway;

  beforeAll(async () => {
    gw = await ingestTestGateway();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const onTopic = async (projectKey: string) => (await readTopic(gw.topic)).filter((m) => m.key === projectKey).length;

  it('/ingest: a retry with the same key returns the first response and produces and counts nothing new', async () => {
    const project = await gw.provision();
    const key = randomUUID();
    const body = envelope(project.projectKey);
    // The burst count read below is this minute's.
    await awayFromMinuteEnd();
    const first = await gw.ingest(project, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await gw.expectProducedNothing(() => gw.ingest(project, body, { 'idempotency-key': key }));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const limits = await gw.rateLimits(project);
    expect([limits.burst_per_minute.used, limits.monthly_quota.used]).toEqual([1, 1]);

    // Another key is another request.
    const other = await gw.ingest(project, body, { 'idempotency-key': randomUUID() });
    expect(other.body.event_id).not.toBe(first.body.event_id);
    expect(await onTopic(project.projectKey)).toBe(2);
  });

  it('keeps the response for 24 hours', async () => {
    const project = await gw.provision();
    expect((await gw.ingest(project, envelope(project.projectKey), { 'idempotency-key': 'day-long' })).status).toBe(201);
    const [stored] = await gw.redis.keys(`{pbidem}:${project.projectKey}:ingest:*`);
    const ttl = await gw.redis.ttl(stored!);
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it('/webhooks: a retried batch returns the same ids and rate-limit headers and produces nothing new', async () => {
    const project = await gw.provision();
    const key = randomUUID();
    const body = { events: [envelope(project.projectKey), envelope(project.projectKey, { name: 'deploy_failed' })] };
    const first = await gw.webhook(project, body, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const retry = await gw.expectProducedNothing(() => gw.webhook(project, body, { 'idempotency-key': key }));
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('x-burst-remaining')).toBe(first.headers.get('x-burst-remaining'));
    expect(await onTopic(project.projectKey)).toBe(2);
    // Keys are per endpoint: the same key on /ingest is a new request.
    expect((await gw.ingest(project, envelope(project.projectKey), { 'idempotency-key': key })).status).toBe(201);
  });

  it('refuses the same key with a different body (422) and a second request while the first is still running (409 or the replay)', async () => {
    const project = await gw.provision();
    const key = randomUUID();
    expect((await gw.ingest(project, envelope(project.projectKey), { 'idempotency-key': key })).status).toBe(201);
    const reused = await gw.ingest(project, envelope(project.projectKey, { name: 'deploy_failed' }), { 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ status: 'error', code: 'idempotency_key_reused', message: expect.any(String) });

    const raceKey = randomUUID();
    const body = envelope(project.projectKey);
    const race = await Promise.all(Array.from({ length: 5 }, () => gw.ingest(project, body, { 'idempotency-key': raceKey })));
    const ids = new Set(race.filter((r) => r.status === 201).map((r) => r.body.event_id));
    expect(ids.size).toBe(1);
    for (const r of race) expect([201, 409]).toContain(r.status);
    expect(race.filter((r) => r.status === 409).every((r) => r.headers.get('retry-after') === '1')).toBe(true);
    expect(await onTopic(project.projectKey)).toBe(2);
  });

  it('keeps nothing for a refused request: the retry really runs', async () => {
    const project = await gw.provision({ burstLimit: 1 });
    const key = randomUUID();
    const body = envelope(project.projectKey);
    // The 201 and the two refusals in one burst minute.
    await awayFromMinuteEnd();
    expect((await gw.ingest(project)).status).toBe(201);
    const limited = await gw.ingest(project, body, { 'idempotency-key': key });
    expect(limited.status).toBe(429);
    const again = await gw.ingest(project, body, { 'idempotency-key': key });
    expect(again.status).toBe(429);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    // A corrected request may reuse the key of a refused one.
    const other = await gw.provision();
    const invalid = await gw.webhook(other, { events: [{ type: 'nope' }] }, { 'idempotency-key': 'fix-me' });
    expect(invalid.status).toBe(400);
    const fixed = await gw.webhook(other, { events: [envelope(other.projectKey)] }, { 'idempotency-key': 'fix-me' });
    expect(fixed.status).toBe(202);

    const blank = await gw.ingest(other, envelope(other.projectKey), { 'idempotency-key': '' });
    expect(blank.status).toBe(400);
    expect(blank.body.details).toEqual({ 'Idempotency-Key': ["can't be blank"] });
  });

  it('a key whose gateway died mid-request (ids recorded, never answered): 409 while its lease lasts, then taken over with the same ids', async () => {
    // The store as a gateway uses it, with a 1 s lease; "dying" is claiming and recording, then nothing.
    const store = new IdempotencyStore(gw.redis, 3600, 1);
    // A project of this test's own: Redis outlives a run, and keys of earlier runs must not be read here.
    const project = `dead-gw-${randomUUID()}`;
    const key = randomUUID();
    const first = await store.claim(project, 'webhooks', key, '{"events":[1]}');
    if (first.kind !== 'claimed') throw new Error('expected a claim');
    expect(first.resume).toBeUndefined();
    await first.recordAttempt({ ids: [41, 42], receivedAtMs: 1234 });

    await expect(store.claim(project, 'webhooks', key, '{"events":[1]}')).rejects.toMatchObject({ code: 'idempotency_conflict' });
    // Another body under the key is still refused as reuse.
    await expect(store.claim(project, 'webhooks', key, '{"events":[2]}')).rejects.toMatchObject({ code: 'idempotency_key_reused' });

    const retry = await waitForClaim(() => store.claim(project, 'webhooks', key, '{"events":[1]}'));
    expect(retry.resume).toEqual({ ids: [41, 42], receivedAtMs: 1234 });
    // The recorded ids keep the key's full TTL, through the takeover too.
    const [entry] = await gw.redis.keys(`{pbidem}:${project}:webhooks:*`);
    expect(await gw.redis.ttl(entry!)).toBeGreaterThan(3000);
    // The new holder has its own lease: a concurrent retry waits again.
    await expect(store.claim(project, 'webhooks', key, '{"events":[1]}')).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('a key whose gateway died before recording ids is taken over with none to reuse (nothing reached Kafka)', async () => {
    const store = new IdempotencyStore(gw.redis, 3600, 1);
    // A project of this test's own: Redis outlives a run, and keys of earlier runs must not be read here.
    const project = `dead-gw-${randomUUID()}`;
    const key = randomUUID();
    expect((await store.claim(project, 'ingest', key, 'body')).kind).toBe('claimed');
    const retry = await waitForClaim(() => store.claim(project, 'ingest', key, 'body'));
    expect(retry.resume).toBeUndefined();
  });
});

/** Claims again until the lease has run out (409 until then). */
async function waitForClaim(claim: () => ReturnType<IdempotencyStore['claim']>) {
  for (const started = Date.now(); Date.now() - started < 10_000;) {
    try {
      const result = await claim();
      if (result.kind === 'claimed') return result;
      throw new Error(`unexpected ${result.kind}`);
    } catch (error) {
      if ((error as { code?: string }).code !== 'idempotency_conflict') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the lease did not run out within 10 s');
}
