import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, startPrivateBroker, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

describe('the broker goes down under a running gateway', () => {
  let broker: Awaited<ReturnType<typeof startPrivateBroker>>;
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let project: Awaited<ReturnType<typeof pipeline.provision>>;

  beforeAll(async () => {
    broker = await startPrivateBroker();
    pipeline = await startPipeline({ KAFKA_BROKERS: broker.brokers, KAFKA_DELIVERY_TIMEOUT_MS: '3000' });
    project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
  }, 300_000);
  afterAll(async () => {
    await pipeline?.stop();
    await broker?.destroy();
  });

  it('answers 503 with Retry-After (never 201, never a hang) while it is down, and 201 again once it is back', async () => {
    const before = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
    expect(before.status).toBe(201);

    await broker.stop();
    const during = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const started = Date.now();
        const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
        return { ...res, tookMs: Date.now() - started };
      }),
    );
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body).toMatchObject({ status: 'error', code: expect.any(String), message: expect.any(String) });
      // Bounded by the delivery timeout (3 s), not by kafkajs' endless retries.
      expect(res.tookMs).toBeLessThan(15_000);
    }

    await broker.start();
    const after = await waitFor(
      async () => {
        const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'ingest to recover' },
    );
    expect(after.body.event_id).toBeGreaterThan(before.body.event_id);
    // A hang guard above the private broker's bounded restart (KAFKA_START_TIMEOUT_S 180 in the test kit).
  }, 300_000);
});
