import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadRuleEngineEnv, startRuleEngine, type RuleEngineService } from '@pulseboard/rule-engine';
import { envelope, freePort, readTopic, request, TEST_DATABASE_URL, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

type Project = Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;

// Engine time starts at the wall clock (events must be within the gateway's timestamp window) and moves by hand.
let now = Date.now();
const clock = () => now;

describe('rule engine: events evaluated against tile rules (CONTRACT Tiles)', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let engine: RuleEngineService;
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });

  beforeAll(async () => {
    pipeline = await startPipeline();
    engine = await startRuleEngine(
      loadRuleEngineEnv({ ...pipeline.env, RULE_ENGINE_HTTP_PORT: String(await freePort()), RULE_ENGINE_RULES_POLL_MS: '100000' }),
      { clock },
    );
  });
  afterAll(async () => {
    await engine?.stop();
    await pipeline?.stop();
    await db.end();
  });

  const createTile = async (project: Project, name: string, rule: unknown): Promise<number> => {
    const res = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name, kind: 'metric', rule } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };
  const ingest = async (project: Project, event: Record<string, unknown>): Promise<number> => {
    const res = await request(`${pipeline.url}/ingest`, {
      token: project.apiKey,
      body: envelope(project.projectKey, { timestamp: new Date(now).toISOString(), ...event }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.event_id as number;
  };
  const state = async (tileId: number) =>
    (await db.query('SELECT status, value, version, last_event_id FROM tile_states WHERE tile_id = $1', [tileId])).rows[0];
  const history = async (tileId: number) =>
    (await db.query('SELECT id, status, previous_status, value, version, event_id, cause FROM tile_state_history WHERE tile_id = $1 ORDER BY id', [tileId]))
      .rows;
  const waitForVersion = (tileId: number, version: number) =>
    waitFor(async () => (await state(tileId))?.version === version, { timeoutMs: 15000, what: `tile ${tileId} at version ${version}` });

  it('threshold: each crossing is one change with version, history and a tile-changes message', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const tile = await createTile(project, 'CPU', {
      filter: { type: 'metric', name: 'cpu' },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 },
    });
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 50 } });
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 60 } });
    const warn = await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 85 } });
    await ingest(project, { type: 'metric', name: 'other', attributes: { value: 99 } });
    await waitForVersion(tile, 3);
    expect(await state(tile)).toEqual({ status: 'warning', value: 85, version: 3, last_event_id: warn });
    const rows = await history(tile);
    expect(rows.map((r) => [r.previous_status, r.status, r.value, r.version, r.cause])).toEqual([
      ['unknown', 'ok', 50, 1, 'event'],
      ['ok', 'ok', 60, 2, 'event'],
      ['ok', 'warning', 85, 3, 'event'],
    ]);
    await waitFor(async () => (await readTopic(pipeline.env.TOPIC_TILE_CHANGES!)).filter((m) => m.key === project.projectKey).length === 3, {
      timeoutMs: 10000,
      what: 'three tile-changes messages',
    });
    const messages = (await readTopic(pipeline.env.TOPIC_TILE_CHANGES!)).filter((m) => m.key === project.projectKey).map((m) => JSON.parse(m.value!));
    expect(messages.map((m) => m.position)).toEqual(rows.map((r) => Number(r.id)));
    expect(messages[2]).toMatchObject({
      tile_id: tile,
      project_key: project.projectKey,
      tile_name: 'CPU',
      status: 'warning',
      previous_status: 'ok',
      value: 85,
      version: 3,
      event_id: warn,
      cause: 'event',
    });
  });

  it('window: the value falls as events leave it, from the timer, with no new event', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const tile = await createTile(project, 'Errors', {
      filter: { type: 'error' },
      evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 2, critical: 10 },
    });
    now = Date.now();
    for (let i = 0; i < 3; i++) await ingest(project, { type: 'error', name: 'boom' });
    await waitForVersion(tile, 3);
    expect(await state(tile)).toMatchObject({ status: 'warning', value: 3 });
    now += 5 * 60_000 + 1000;
    await engine.tick();
    expect(await state(tile)).toMatchObject({ status: 'ok', value: 0, version: 4, last_event_id: null });
    expect((await history(tile)).at(-1)).toMatchObject({ cause: 'time', status: 'ok', previous_status: 'warning', event_id: null });
  });

  /** The engine's own count of the timer's transactions, from its /metrics. */
  const timerTransactions = async (): Promise<number> => {
    const text = await (await fetch(`${engine.httpAddress}/metrics`)).text();
    return Number(/^pulseboard_rule_engine_timer_transactions_total (\d+)/m.exec(text)?.[1] ?? NaN);
  };

  it('the timer opens a transaction only for a partition with something due: a tick with nothing due costs none', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const tile = await createTile(project, 'Errors soon gone', {
      filter: { type: 'error' },
      evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 1, critical: 10 },
    });
    now = Date.now();
    await ingest(project, { type: 'error', name: 'boom' });
    await waitForVersion(tile, 1);
    // Whatever earlier tests left due goes first.
    now += 1000;
    await engine.tick();
    const before = await timerTransactions();
    expect(before).toBeGreaterThanOrEqual(0);
    // The engine holds every partition of the events topic, and nothing is due yet: no transaction.
    await engine.tick();
    await engine.tick();
    expect(await timerTransactions()).toBe(before);
    // The entry leaves the window: one transaction, for the one partition that holds the tile.
    now += 60_000;
    await engine.tick();
    expect(await state(tile)).toMatchObject({ status: 'ok', value: 0, version: 2 });
    expect(await timerTransactions()).toBe(before + 1);
  });

  it('stale_after fires without an event; pending holds a worse status until it has lasted', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    now = Date.now();
    const uptime = await createTile(project, 'Uptime', { filter: { type: 'uptime' }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '10m' });
    const damped = await createTile(project, 'Damped', {
      filter: { type: 'metric' },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 },
      pending: '1m',
    });
    await ingest(project, { type: 'uptime', name: 'check', attributes: { is_up: true } });
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 10 } });
    await waitForVersion(uptime, 1);
    await waitForVersion(damped, 1);
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 99 } });
    await waitForVersion(damped, 2);
    // The value shows the data at once; the status waits for `pending`.
    expect(await state(damped)).toMatchObject({ status: 'ok', value: 99 });
    now += 61_000;
    await engine.tick();
    expect(await state(damped)).toMatchObject({ status: 'critical', value: 99, version: 3, last_event_id: null });
    now += 10 * 60_000;
    await engine.tick();
    expect(await state(uptime)).toMatchObject({ status: 'stale', version: 2 });
  });

  it('recovery holds a better status until it has lasted; the value follows the data at once', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    now = Date.now();
    const tile = await createTile(project, 'Recovering', {
      filter: { type: 'metric' },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 },
      recovery: '2m',
    });
    const bad = await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 99 } });
    await waitForVersion(tile, 1);
    expect(await state(tile)).toMatchObject({ status: 'critical', value: 99, last_event_id: bad });
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 10 } });
    await waitForVersion(tile, 2);
    expect(await state(tile)).toMatchObject({ status: 'critical', value: 10 });
    now += 60_000;
    await engine.tick();
    expect(await state(tile)).toMatchObject({ status: 'critical', version: 2 });
    now += 61_000;
    await engine.tick();
    expect(await state(tile)).toMatchObject({ status: 'ok', value: 10, version: 3, last_event_id: null });
    expect((await history(tile)).map((r) => [r.previous_status, r.status, r.cause])).toEqual([
      ['unknown', 'critical', 'event'],
      ['critical', 'critical', 'event'],
      ['critical', 'ok', 'time'],
    ]);
  });

  it('a rule change applies to the next event, with no restart', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    now = Date.now();
    const tile = await createTile(project, 'Latency', {
      filter: { type: 'metric', name: 'latency' },
      evaluation: { kind: 'threshold', attribute: 'ms', warning: 500, critical: 1000 },
    });
    await ingest(project, { type: 'metric', name: 'latency', attributes: { ms: 300 } });
    await waitForVersion(tile, 1);
    const put = await request(`${pipeline.url}/api/v1/tiles/${tile}`, {
      method: 'PUT',
      token: project.apiKey,
      body: { rule: { filter: { type: 'metric', name: 'latency' }, evaluation: { kind: 'threshold', attribute: 'ms', warning: 100, critical: 1000 } } },
    });
    expect(put.status).toBe(200);
    await engine.refreshRules();
    await ingest(project, { type: 'metric', name: 'latency', attributes: { ms: 300 } });
    await waitFor(async () => (await state(tile))?.status === 'warning', { timeoutMs: 10000, what: 'the new threshold applied' });
    const del = await request(`${pipeline.url}/api/v1/tiles/${tile}`, { method: 'DELETE', token: project.apiKey });
    expect(del.status).toBe(204);
    await engine.refreshRules();
    await waitFor(async () => (await state(tile)) === undefined, { timeoutMs: 10000, what: 'the deleted tile state removed' });
  });

  it('every filter operator and field, and every window aggregate, on the real pipeline', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    now = Date.now();
    // Each tile counts the events its filter lets through (a count window), so its value says which matched.
    const counted = (filter: unknown) => ({ filter, evaluation: { kind: 'window', aggregate: 'count', window: '1h', warning: 1000 } });
    const filters: Record<string, unknown> = {
      eq: { attributes: { 'http.status': { eq: 500 } } },
      plain: { attributes: { 'http.status': 500 } },
      ne: { attributes: { 'http.status': { ne: 500 } } },
      in: { attributes: { region: { in: ['eu', 'us'] } } },
      gt: { attributes: { 'http.status': { gt: 499 } } },
      gte: { attributes: { 'http.status': { gte: 404 } } },
      lt: { attributes: { 'http.status': { lt: 404 } } },
      lte: { attributes: { 'http.status': { lte: 404 } } },
      exists: { attributes: { trace: { exists: true } } },
      absent: { attributes: { trace: { exists: false } } },
      contains: { attributes: { message: { contains: 'timeout' } } },
      labels: { labels: ['prod', 'api'] },
      severity: { severity: ['error', 'critical'] },
      source: { source: 'billing' },
      channel: { channel: 'ops' },
      names: { type: 'error', name: ['a', 'b'] },
    };
    const ids: Record<string, number> = {};
    for (const [name, filter] of Object.entries(filters)) ids[name] = await createTile(project, name, counted(filter));
    const windows: Record<string, number> = {};
    for (const aggregate of ['sum', 'avg', 'min', 'max'] as const) {
      windows[aggregate] = await createTile(project, aggregate, {
        filter: { name: 'latency' },
        evaluation: { kind: 'window', aggregate, attribute: 'ms', window: '5m', warning: 100000 },
      });
    }
    const events = [
      {
        type: 'error',
        name: 'a',
        severity: 'error',
        source: 'billing',
        channel: 'ops',
        labels: ['prod', 'api', 'x'],
        attributes: { http: { status: 500 }, region: 'eu', trace: 't1', message: 'upstream timeout' },
      },
      {
        type: 'error',
        name: 'b',
        severity: 'warn',
        source: 'web',
        labels: ['prod'],
        attributes: { http: { status: 404 }, region: 'ap', message: 'not found' },
      },
      {
        type: 'infrastructure',
        name: 'c',
        severity: 'critical',
        channel: 'ops',
        labels: ['api', 'prod'],
        attributes: { http: { status: 200 }, region: 'us', trace: 't3' },
      },
      { type: 'metric', name: 'latency', attributes: { ms: 100 } },
      { type: 'metric', name: 'latency', attributes: { ms: 300 } },
      { type: 'metric', name: 'latency', attributes: { ms: 200 } },
    ];
    for (const event of events) await ingest(project, event);
    // The last event changes the sum (100, 400, 600) but not the max: only the sum's third version says every event is in.
    await waitForVersion(windows.sum!, 3);
    const value = async (id: number) => (await state(id))?.value ?? 0;
    const counts = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, await value(id)])));
    expect(counts).toEqual({
      eq: 1,
      plain: 1,
      ne: 5,
      in: 2,
      gt: 1,
      gte: 2,
      lt: 1,
      lte: 2,
      exists: 2,
      absent: 4,
      contains: 1,
      labels: 2,
      severity: 2,
      source: 1,
      channel: 2,
      names: 2,
    });
    expect(await value(windows.sum!)).toBe(600);
    expect(await value(windows.avg!)).toBe(200);
    expect(await value(windows.min!)).toBe(100);
    expect(await value(windows.max!)).toBe(300);
  });
});
