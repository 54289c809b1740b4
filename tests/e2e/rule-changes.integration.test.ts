import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, TEST_DATABASE_URL, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

/**
 * CONTRACT Tiles: "A rule change applies to the next event within a second,
 * with no restart." A rule engine process with its default rules poll (500 ms);
 * each change is followed, one second after the API answered, by an event
 * that only the new rule would treat as the test expects.
 */
describe('rule changes reach a running engine within a second', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });

  beforeAll(async () => {
    pipeline = await startPipeline();
    await pipeline.startRuleEngine({ RULE_ENGINE_RULES_POLL_MS: '500' });
  }, 120_000);
  afterAll(async () => {
    await pipeline?.stop();
    await db.end();
  });

  const second = () => new Promise((r) => setTimeout(r, 1000));
  const state = async (tile: number) => (await db.query('SELECT status, value, version::int AS version FROM tile_states WHERE tile_id = $1', [tile])).rows[0];

  it('created, changed and deleted tiles apply to the event sent a second later', async () => {
    const project = await pipeline.provision();
    const ingest = async (ms: number) =>
      expect(
        (
          await request(`${pipeline.url}/ingest`, {
            token: project.apiKey,
            body: envelope(project.projectKey, { type: 'metric', name: 'latency', attributes: { ms } }),
          })
        ).status,
      ).toBe(201);
    const rule = (warning: number) => ({
      filter: { type: 'metric', name: 'latency' },
      evaluation: { kind: 'threshold', attribute: 'ms', warning, critical: 10_000 },
    });

    // First, the engine is consuming: a tile and an event it has evaluated.
    const warm = await request(`${pipeline.url}/api/v1/tiles`, {
      token: project.apiKey,
      body: {
        name: 'Warm-up',
        kind: 'metric',
        rule: { filter: { name: 'warm' }, evaluation: { kind: 'threshold', attribute: 'ms', warning: 1, critical: 2 } },
      },
    });
    await waitFor(
      async () => {
        await request(`${pipeline.url}/ingest`, {
          token: project.apiKey,
          body: envelope(project.projectKey, { type: 'metric', name: 'warm', attributes: { ms: 0 } }),
        });
        await new Promise((r) => setTimeout(r, 500));
        return (await state(warm.body.data.id)) !== undefined;
      },
      { timeoutMs: 60_000, what: 'the engine evaluating events' },
    );

    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'Latency', kind: 'metric', rule: rule(500) } });
    expect(created.status).toBe(201);
    const tile = created.body.data.id as number;
    await second();
    await ingest(300);
    await waitFor(async () => (await state(tile))?.version === 1, { timeoutMs: 5000, what: 'the new tile evaluated' });
    expect(await state(tile)).toMatchObject({ status: 'ok', value: 300 });

    expect((await request(`${pipeline.url}/api/v1/tiles/${tile}`, { method: 'PUT', token: project.apiKey, body: { rule: rule(100) } })).status).toBe(200);
    await second();
    await ingest(301);
    await waitFor(async () => (await state(tile))?.value === 301, { timeoutMs: 5000, what: 'the next event evaluated' });
    // Under the old rule 301 would be ok; the new rule took effect before it (and re-judged the state it found).
    expect(await state(tile)).toMatchObject({ status: 'warning', value: 301 });
    const causes = (await db.query('SELECT cause FROM tile_state_history WHERE tile_id = $1 ORDER BY id', [tile])).rows.map((r) => r.cause);
    expect(causes).toEqual(['event', 'rule', 'event']);

    expect((await request(`${pipeline.url}/api/v1/tiles/${tile}`, { method: 'DELETE', token: project.apiKey })).status).toBe(204);
    await second();
    await waitFor(async () => (await state(tile)) === undefined, { timeoutMs: 2000, what: 'the deleted tile state removed' });
  });
});
