import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const event = (value: number) => ({ type: 'metric', name: 'cpu', timestamp: new Date().toISOString(), attributes: { value } });

describe('a webhook outcome leaves with the commit that wrote it, not with the relay sweep', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;

  beforeAll(async () => {
    // The gateway waits far longer than a busy machine needs, and the engine's sweep never comes
    // within the test: only the wake-up on commit can send the outcome.
    pipeline = await startPipeline({ WEBHOOK_OUTCOME_TIMEOUT_MS: '60000' });
    await pipeline.startRuleEngine({ RULE_ENGINE_RELAY_SWEEP_MS: '3600000' });
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('201 with tiles_affected 0 for an event that changes no tile (its tile already shows the value), and 1 for one that does', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const tile = await request(`${pipeline.url}/api/v1/tiles`, {
      token: project.apiKey,
      body: {
        name: 'cpu',
        kind: 'metric',
        rule: { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
      },
    });
    expect(tile.status).toBe(201);
    // The engine reads a new tile's rule within its poll: until then an event affects nothing.
    let value = 10;
    for (const deadline = Date.now() + 60_000; ; value++) {
      const first = await request(`${pipeline.url}/api/v1/webhooks`, { token: project.apiKey, body: event(value) });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      if (first.body.tiles_affected === 1) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Same value: no state, no history row; the transaction writes only the outcome.
    const same = await request(`${pipeline.url}/api/v1/webhooks`, { token: project.apiKey, body: event(value) });
    expect(same.status, JSON.stringify(same.body)).toBe(201);
    expect(same.body).toMatchObject({ status: 'success', tiles_affected: 0 });
    // An event no tile matches: the same.
    const none = await request(`${pipeline.url}/api/v1/webhooks`, {
      token: project.apiKey,
      body: { type: 'deployment', name: 'deploy_finished', timestamp: new Date().toISOString(), attributes: {} },
    });
    expect(none.status, JSON.stringify(none.body)).toBe(201);
    expect(none.body.tiles_affected).toBe(0);
  }, 180_000);
});
