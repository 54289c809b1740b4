import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

type Project = Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;

const RULES = {
  cpu: { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
  errors: { filter: { type: 'error' }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 3, critical: 5 } },
  deploys: {
    filter: { type: 'deployment' },
    evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
  },
};

/** What both the engine's history and the preview say of a change (times differ: the engine's clock against when the gateway received the event). */
const essence = (c: { status: string; previous_status: string; value: unknown; version: number; event_id: number | null; cause: string }) => [
  c.previous_status,
  c.status,
  c.value,
  c.version,
  c.event_id,
  c.cause,
];

/**
 * POST /tiles/preview replays stored events with the engine's own evaluator:
 * events sent through the real pipeline (gateway, store, rule engine), then
 * the engine's history (GET /tiles/:id/history) and the preview of the same
 * rules are the same changes.
 */
describe('tile preview against the live rule engine', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let project: Project;
  const url = (path: string) => `${pipeline.url}${path}`;

  beforeAll(async () => {
    pipeline = await startPipeline();
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine()]);
    project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('equals what the engine computed on the same events, and the history carries the events’ unit', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const tiles: Record<string, number> = {};
    for (const [name, rule] of Object.entries(RULES)) {
      const res = await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name, kind: name, rule } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      tiles[name] = res.body.data.id;
    }
    const events = [
      { type: 'metric', name: 'cpu_usage', attributes: { value: 40, unit: 'percent' } },
      { type: 'deployment', name: 'deploy_started' },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'cpu_usage', attributes: { value: 85, unit: 'percent' } },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'memory', attributes: { value: 99 } },
      { type: 'deployment', name: 'deploy_failed' },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'cpu_usage', attributes: { value: 97, unit: 'percent' } },
      { type: 'error', name: 'boom' },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'cpu_usage', attributes: { value: 'n/a' } },
      { type: 'deployment', name: 'deploy_finished' },
      { type: 'metric', name: 'cpu_usage', attributes: { value: 30, unit: 'percent' } },
    ];
    const start = Date.now();
    for (const [i, event] of events.entries()) {
      // Distinct, increasing timestamps: the order the engine met them is the order the preview reads them.
      const res = await request(url('/ingest'), {
        token: project.apiKey,
        body: envelope(project.projectKey, { ...event, timestamp: new Date(start + i).toISOString() }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const expected = { cpu: 4, errors: 5, deploys: 3 };
    const history = async (tile: number) =>
      (await request(url(`/api/v1/tiles/${tile}/history?since=${encodeURIComponent(since)}&per_page=100`), { token: project.userToken })).body;
    for (const [name, count] of Object.entries(expected)) {
      await waitFor(async () => (await history(tiles[name]!)).meta.total_count === count, { timeoutMs: 20_000, what: `${count} changes of ${name}` });
    }
    // Every event stored before previewing.
    await waitFor(
      async () =>
        (await request(url(`/api/v1/events?project_key=${project.projectKey}&per_page=1`), { token: project.userToken })).body.meta.total_count ===
        events.length,
      { timeoutMs: 20_000, what: 'every event stored' },
    );

    for (const [name, rule] of Object.entries(RULES)) {
      const live = (await history(tiles[name]!)).data.reverse();
      const preview = await request(url('/api/v1/tiles/preview'), { token: project.userToken, body: { project_key: project.projectKey, rule, since } });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.data.timeline.map(essence), name).toEqual(live.map(essence));
      expect(preview.body.data).toMatchObject({
        project_key: project.projectKey,
        changes_total: live.length,
        state: { status: live.at(-1).status, value: live.at(-1).value, version: live.length },
      });
    }
    const cpu = await request(url('/api/v1/tiles/preview'), { token: project.apiKey, body: { rule: RULES.cpu, since } });
    // Of the project's events, the metric cpu_usage ones are read (type and name narrowed in SQL), all five match.
    expect(cpu.body.data).toMatchObject({ events_scanned: 5, events_matched: 5 });
    expect((await history(tiles.cpu!)).data.map((c: { value: unknown; unit: string | null }) => [c.value, c.unit])).toEqual([
      [30, 'percent'],
      [97, 'percent'],
      [85, 'percent'],
      [40, 'percent'],
    ]);
  });

  it('refuses what is out of bounds or not a rule with 400 validation_error, and another project with 404', async () => {
    const old = new Date(Date.now() - 25 * 3_600_000).toISOString();
    const tooOld = await request(url('/api/v1/tiles/preview'), { token: project.apiKey, body: { rule: RULES.cpu, since: old } });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.error).toMatchObject({ code: 'validation_error', details: { since: ['must be at most 24 h ago'] } });
    const badRule = await request(url('/api/v1/tiles/preview'), {
      token: project.apiKey,
      body: { rule: { evaluation: { kind: 'threshold', attribute: 'value', warning: 90, critical: 80 } } },
    });
    expect(badRule.status).toBe(400);
    expect(badRule.body.error.code).toBe('validation_error');
    expect(Object.keys(badRule.body.error.details)[0]).toMatch(/^rule\./);
    const noProject = await request(url('/api/v1/tiles/preview'), { token: project.userToken, body: { rule: RULES.cpu } });
    expect(noProject.body.error).toMatchObject({ code: 'validation_error', details: { project_key: ["can't be blank"] } });
    const other = await pipeline.provision();
    expect((await request(url('/api/v1/tiles/preview'), { token: other.userToken, body: { project_key: project.projectKey, rule: RULES.cpu } })).status).toBe(
      404,
    );
  });
});
