import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@pulseboard/db';
import { request, TEST_DATABASE_URL, waitFor } from '@pulseboard/test-kit';
import { TILES } from '../../deploy/demo-tiles.ts';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

const RULE = {
  filter: { type: 'metric', name: 'cpu_usage' },
  group_by: 'host',
  evaluation: { kind: 'threshold', attribute: 'cpu', warning: 80, critical: 90 },
};

/**
 * A grouped tile (rule `group_by`) through the real pipeline: gateway, Kafka,
 * rule engine and broadcast on Postgres. One state per host; the tile shows
 * the worst host's status and how many hosts have it, and each change of a
 * host reaches subscribers with its group.
 */
describe('grouped tiles through gateway, rule engine and broadcast', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcast: string;
  let pool: Pool;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    pipeline = await startPipeline();
    await Promise.all([pipeline.startRuleEngine(), pipeline.startStore()]);
    broadcast = (await pipeline.startBroadcast()).url;
    pool = createPool({ connectionString: TEST_DATABASE_URL, max: 2, applicationName: 'grouped-tiles-test' });
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await pipeline?.stop();
    await pool?.end();
  });

  const cpu = (host: string | undefined, value: number) => ({
    type: 'metric',
    name: 'cpu_usage',
    timestamp: new Date().toISOString(),
    attributes: { cpu: value, ...(host === undefined ? {} : { host }) },
  });

  it('keeps one state per group, shows the worst, and tells subscribers which group changed', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU by host', kind: 'metric', rule: RULE } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tileId = created.body.data.id as number;
    const socket = await TestSocket.open(broadcast, { headerToken: project.userToken });
    sockets.push(socket);
    await socket.next((m) => m.type === 'ready');
    socket.send({ type: 'subscribe', project: project.projectKey });
    await socket.next((m) => m.type === 'subscribed');

    const ingest = async (events: Record<string, unknown>[]) => {
      const res = await request(`${pipeline.url}/api/v1/webhooks`, { token: project.apiKey, body: { events } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
    };
    const state = async () => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data;

    // Before grouping, the last event (web-2 fine) would have shown the tile ok.
    await ingest([cpu('web-1', 97), cpu('web-2', 50), cpu('web-3', 85), cpu(undefined, 10), cpu('web-2', 40)]);
    const groupsOf = () =>
      pool.query<{ group_key: string; status: string; value: unknown }>(
        'SELECT group_key, status, value FROM tile_group_states WHERE tile_id = $1 ORDER BY group_key',
        [tileId],
      );
    await waitFor(async () => (await groupsOf()).rows.find((g) => g.group_key === 'web-2')?.value === 40, { what: 'every event applied', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({
      status: 'critical',
      value: 1,
      group_by: 'host',
      group_counts: { critical: 1, warning: 1, stale: 0, unknown: 0, ok: 2 },
      groups_refused: 0,
      groups_meta: { current_page: 1, total_pages: 1, total_count: 4, per_page: 100 },
    });
    // Worst first, then by key.
    expect((await state()).groups.map((g: { key: string; status: string; value: unknown; version: number }) => [g.key, g.status, g.value, g.version])).toEqual([
      ['web-1', 'critical', 97, 1],
      ['web-3', 'warning', 85, 1],
      ['(none)', 'ok', 10, 1],
      ['web-2', 'ok', 40, 2],
    ]);
    const second = await request(`${pipeline.url}/api/v1/tiles/${tileId}/state?per_page=3&page=2`, { token: project.apiKey });
    expect(second.body.data.groups.map((g: { key: string }) => g.key)).toEqual(['web-2']);
    expect(second.body.data.groups_meta).toEqual({ current_page: 2, total_pages: 2, total_count: 4, per_page: 3 });
    expect((await groupsOf()).rows).toEqual([
      { group_key: '(none)', status: 'ok', value: 10 },
      { group_key: 'web-1', status: 'critical', value: 97 },
      { group_key: 'web-2', status: 'ok', value: 40 },
      { group_key: 'web-3', status: 'warning', value: 85 },
    ]);

    // Each group's change carries its key; the tile's own change carries none.
    const groupChange = await socket.next((m) => m.type === 'change' && m.change.group === 'web-1');
    expect(groupChange.change).toMatchObject({ tile_id: tileId, status: 'critical', previous_status: 'unknown', value: 97 });
    const tileChange = await socket.next((m) => m.type === 'change' && m.change.group === undefined && m.change.status === 'critical');
    expect(tileChange.change).toMatchObject({ tile_id: tileId, value: 1 });

    // The critical host recovers: the tile shows the next worst, the warning host.
    await ingest([cpu('web-1', 20)]);
    await waitFor(async () => (await state()).status === 'warning', { what: 'the tile warning', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({ status: 'warning', value: 1 });
    const history = async (query: string) => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/history${query}`, { token: project.apiKey })).body;
    const web1 = await history('?group=web-1');
    expect(web1.data.map((c: { status: string; version: number; group: string }) => [c.status, c.version, c.group])).toEqual([
      ['ok', 2, 'web-1'],
      ['critical', 1, 'web-1'],
    ]);
    // Without `group`: the tile's own changes only, newest first.
    const own = await history('');
    expect(own.data.map((c: { status: string; value: unknown }) => [c.status, c.value])[0]).toEqual(['warning', 1]);
    expect(own.data.every((c: { group?: string }) => c.group === undefined)).toBe(true);
    expect((await history('?group=nobody')).data).toEqual([]);

    // The preview over the stored events evaluates group_by as the engine did.
    const preview = async () =>
      (
        await request(`${pipeline.url}/api/v1/tiles/preview`, {
          token: project.apiKey,
          body: { rule: RULE, since: new Date(Date.now() - 10 * 60_000).toISOString() },
        })
      ).body.data;
    await waitFor(async () => (await preview()).events_matched === 6, { what: 'every event stored', timeoutMs: 20_000 });
    const previewed = await preview();
    expect(previewed.state).toMatchObject({ status: 'warning', value: 1 });
    expect(previewed.group_counts).toEqual({ critical: 0, warning: 1, stale: 0, unknown: 0, ok: 3 });
    expect(previewed.groups.map((g: { key: string; status: string; value: unknown }) => [g.key, g.status, g.value])).toEqual([
      ['web-3', 'warning', 85],
      ['(none)', 'ok', 10],
      ['web-1', 'ok', 20],
      ['web-2', 'ok', 40],
    ]);
    expect(previewed.timeline.filter((c: { group?: string }) => c.group === 'web-1').map((c: { status: string }) => c.status)).toEqual(['critical', 'ok']);

    // A dry replay compares the tile's own state; applying one to a grouped tile is refused.
    const replay = (dryRun: boolean) =>
      request(`${pipeline.url}/api/v1/tiles/${tileId}/replay`, {
        token: project.apiKey,
        body: { dry_run: dryRun, since: new Date(Date.now() - 10 * 60_000).toISOString() },
      });
    const dry = await replay(true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data).toMatchObject({ equal: true, state: { status: 'warning', value: 1 }, events_replayed: 6 });
    const applied = await replay(false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(400);
    expect(applied.body.error.details).toEqual({ rule: ['a grouped tile (group_by) cannot be replayed; preview its rule instead'] });
  }, 60_000);

  it("refuses new groups past the project's limit and counts them; the limit is bounded", async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const settings = (value: unknown) =>
      request(`${pipeline.url}/api/v1/projects/${project.projectKey}`, {
        method: 'PUT',
        token: project.userToken,
        body: { settings: { max_groups_per_tile: value } },
      });
    for (const bad of [0, 10_001, 'many']) expect((await settings(bad)).status).toBe(400);
    expect((await settings(2)).status).toBe(200);
    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU by host', kind: 'metric', rule: RULE } });
    const tileId = created.body.data.id as number;
    const res = await request(`${pipeline.url}/api/v1/webhooks`, {
      token: project.apiKey,
      body: { events: [cpu('web-1', 97), cpu('web-2', 50), cpu('web-3', 99), cpu('web-2', 95)] },
    });
    expect(res.status).toBe(202);
    const state = async () => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data;
    await waitFor(async () => (await state()).groups_refused === 1 && (await state()).value === 2, { what: 'every event applied', timeoutMs: 20_000 });
    // web-3 was refused, not merged into another group; web-2 still took its own events.
    expect((await state()).groups.map((g: { key: string; value: unknown }) => [g.key, g.value])).toEqual([
      ['web-1', 97],
      ['web-2', 95],
    ]);
    expect((await state()).group_counts).toMatchObject({ critical: 2, ok: 0 });
  }, 60_000);

  it("the demo's Alertmanager tile stays critical when a resolved alert comes after a firing one in the same webhook", async () => {
    const project = await pipeline.provision();
    const tile = TILES.find((t) => t.name === 'Alertmanager alerts')!;
    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: tile });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const now = new Date().toISOString();
    const res = await request(`${pipeline.url}/api/v1/integrations/alertmanager`, {
      token: project.apiKey,
      body: {
        version: '4',
        status: 'firing',
        receiver: 'pulseboard',
        alerts: [
          { status: 'firing', labels: { alertname: 'DiskFull', instance: 'db-1' }, fingerprint: 'f-disk', startsAt: now },
          { status: 'resolved', labels: { alertname: 'HighLatency', instance: 'api-1' }, fingerprint: 'f-latency', startsAt: now, endsAt: now },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const state = async () => (await request(`${pipeline.url}/api/v1/tiles/${created.body.data.id}/state`, { token: project.apiKey })).body.data;
    await waitFor(async () => (await state()).groups_meta.total_count === 2, { what: 'both alerts applied', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({ status: 'critical', value: 1, group_counts: { critical: 1, ok: 1 } });
  }, 60_000);

  it('a silent group goes stale and then retires on the timer, with no new event', async () => {
    const project = await pipeline.provision();
    const rule = { ...RULE, stale_after: '1s', group_retire_after: '3s' };
    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU', kind: 'metric', rule } });
    const tileId = created.body.data.id as number;
    const res = await request(`${pipeline.url}/api/v1/webhooks`, { token: project.apiKey, body: { events: [cpu('web-1', 97), cpu('web-2', 10)] } });
    expect(res.status).toBe(202);
    const state = async () => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data;
    await waitFor(async () => (await state()).group_counts.stale === 2, { what: 'both groups stale', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({ status: 'stale', value: 2 });
    await waitFor(async () => (await state()).groups_meta.total_count === 0, { what: 'both groups retired', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({ status: 'unknown', value: null, groups: [], group_counts: { stale: 0, critical: 0 } });
    const own = (await request(`${pipeline.url}/api/v1/tiles/${tileId}/history`, { token: project.apiKey })).body.data;
    expect(own.map((c: { status: string; cause: string }) => [c.status, c.cause]).slice(0, 2)).toEqual([
      ['unknown', 'time'],
      ['stale', 'time'],
    ]);
  }, 60_000);

  it('a rule change to and from group_by moves the tile: groups start from the next event, and go with the grouping', async () => {
    const project = await pipeline.provision();
    const plain = { filter: RULE.filter, evaluation: RULE.evaluation };
    const created = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU', kind: 'metric', rule: plain } });
    const tileId = created.body.data.id as number;
    const ingest = async (events: Record<string, unknown>[]) =>
      expect((await request(`${pipeline.url}/api/v1/webhooks`, { token: project.apiKey, body: { events } })).status).toBe(202);
    const state = async () => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data;
    const ruleOf = async (rule: object) =>
      expect((await request(`${pipeline.url}/api/v1/tiles/${tileId}`, { method: 'PUT', token: project.apiKey, body: { rule } })).status).toBe(200);

    await ingest([cpu('web-1', 97), cpu('web-2', 10)]);
    await waitFor(async () => (await state()).value === 10, { what: 'the ungrouped tile ok', timeoutMs: 20_000 });
    expect((await state()).groups).toBeUndefined();

    await ruleOf(RULE);
    await ingest([cpu('web-1', 97), cpu('web-2', 10)]);
    await waitFor(async () => (await state()).groups_meta?.total_count === 2, { what: 'two groups', timeoutMs: 20_000 });
    expect(await state()).toMatchObject({ status: 'critical', value: 1 });

    await ruleOf(plain);
    await ingest([cpu('web-3', 50)]);
    await waitFor(async () => (await state()).value === 50, { what: 'the ungrouped tile again', timeoutMs: 20_000 });
    expect((await state()).status).toBe('ok');
    const left = await pool.query('SELECT group_key FROM tile_group_states WHERE tile_id = $1', [tileId]);
    expect(left.rows).toEqual([]);
  }, 60_000);
});
