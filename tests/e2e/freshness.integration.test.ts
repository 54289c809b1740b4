import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, projectFreshnessSchema, type Freshness } from '@pulseboard/contracts';
import { envelope, request, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const validFreshness = createAjv().compile(projectFreshnessSchema);

/**
 * GET /api/v1/projects/{key} says how far behind live the project's tiles are: a gateway and a
 * rule engine on real Kafka and Postgres. Caught up it is 0 (`live`), also long after the last
 * event; with the engine stopped while the gateway keeps acknowledging events it grows with the
 * clock and turns `behind` at 30 s; the engine started again brings it back to live.
 */
describe('project freshness', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let engine: ServiceProcess | undefined;

  beforeAll(async () => {
    pipeline = await startPipeline();
    engine = await pipeline.startRuleEngine();
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('is live when the engine applied everything, grows while it is stopped and events are acknowledged, and is live again once it caught up', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const freshness = async (): Promise<Freshness> => {
      const answer = await request(`${pipeline.url}/api/v1/projects/${project.projectKey}`, { token: project.apiKey });
      expect(answer.status).toBe(200);
      expect(validFreshness(answer.body.data.freshness), JSON.stringify(validFreshness.errors)).toBe(true);
      return answer.body.data.freshness as Freshness;
    };
    const send = async (n: number) => {
      for (let i = 0; i < n; i++)
        expect(
          (await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, { attributes: { value: i } }) })).status,
        ).toBe(201);
    };

    await send(3);
    // Caught up: nothing waits, the tiles are live (the engine reports about every second).
    await expect.poll(freshness, { timeout: 30_000, interval: 250 }).toMatchObject({ status: 'live', behind_seconds: 0, pending_events: 0 });
    const caughtUp = await freshness();
    expect(caughtUp.applied_through).not.toBeNull();
    // Events flowing at a few a second: a reading taken between them is at most a few seconds.
    for (let i = 0; i < 6; i++) {
      await send(1);
      expect((await freshness()).behind_seconds).toBeLessThan(5);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // A quiet project whose engine is caught up stays live however old its last event.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await expect.poll(freshness, { timeout: 10_000, interval: 250 }).toMatchObject({ status: 'live', behind_seconds: 0 });

    await engine!.kill('SIGTERM');
    engine = undefined;
    await send(5);
    const first = await freshness();
    expect(first.pending_events).toBeGreaterThanOrEqual(5);
    expect(first.behind_seconds).not.toBeNull();
    // Grows with the clock while nothing is applied.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const later = await freshness();
    expect(later.behind_seconds! - first.behind_seconds!).toBeGreaterThanOrEqual(2);
    expect(later.pending_events).toBe(first.pending_events);
    await expect.poll(async () => (await freshness()).status, { timeout: 60_000, interval: 1000 }).toBe('behind');

    engine = await pipeline.startRuleEngine();
    await expect.poll(freshness, { timeout: 60_000, interval: 500 }).toMatchObject({ status: 'live', behind_seconds: 0, pending_events: 0 });
  }, 240_000);
});
