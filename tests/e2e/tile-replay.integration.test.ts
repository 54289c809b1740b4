import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

type Project = Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;

const latency = (warning: number) => ({
  filter: { type: 'metric', name: 'latency' },
  evaluation: { kind: 'threshold', attribute: 'ms', warning, critical: 10_000 },
});
const errors = { filter: { type: 'error' }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 3, critical: 5 } };

/**
 * POST /tiles/:id/replay: the tile's current rule over the stored events, in
 * the order the rule engine met them (the store keeps each event's topic
 * position), compared with the live state the engine committed.
 */
describe('tile replay against the live rule engine', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let project: Project;
  let db: pg.Pool;
  const url = (path: string) => `${pipeline.url}${path}`;
  const replay = async (tile: number, body: object = {}, token = project.apiKey) => request(url(`/api/v1/tiles/${tile}/replay`), { token, body });
  const liveState = async (tile: number) => (await request(url(`/api/v1/tiles/${tile}/state`), { token: project.apiKey })).body.data;

  beforeAll(async () => {
    pipeline = await startPipeline();
    db = new pg.Pool({ connectionString: pipeline.env.DATABASE_URL, max: 2 });
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine()]);
    project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
  }, 120_000);
  afterAll(async () => {
    await pipeline?.stop();
    await db?.end();
  });

  const send = async (events: Record<string, unknown>[]) => {
    for (const event of events) {
      const res = await request(url('/ingest'), { token: project.apiKey, body: envelope(project.projectKey, event) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  };
  const stored = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE project_key = $1', [project.projectKey])).rows[0]!.n;

  it('equals the live state on the rule the engine ran, shows what a changed rule implies, and applies it to the past', async () => {
    const created = await Promise.all(
      [latency(500), errors].map(
        async (rule, i) =>
          (await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name: `t${i}`, kind: 'metric', rule } })).body.data.id as number,
      ),
    );
    const [latencyTile, errorsTile] = created as [number, number];
    const events = [
      { type: 'metric', name: 'latency', attributes: { ms: 120 } },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'latency', attributes: { ms: 300 } },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'other', attributes: { ms: 9000 } },
      { type: 'error', name: 'boom' },
      { type: 'metric', name: 'latency', attributes: { ms: 250 } },
    ];
    await send(events);
    await waitFor(async () => (await stored()) === events.length, { timeoutMs: 20_000, what: 'every event stored' });
    await waitFor(async () => (await liveState(latencyTile)).value === 250 && (await liveState(errorsTile)).value === 3, {
      timeoutMs: 20_000,
      what: 'the engine evaluated every event',
    });

    // Each stored event keeps where the topic held it: one partition for the project, distinct offsets in sending order.
    const positions = (
      await db.query<{ p: number; o: string }>(
        'SELECT kafka_partition AS p, kafka_offset::text AS o FROM events WHERE project_key = $1 ORDER BY received_at, id',
        [project.projectKey],
      )
    ).rows;
    expect(new Set(positions.map((r) => r.p)).size).toBe(1);
    expect(positions.map((r) => BigInt(r.o))).toEqual(positions.map((r) => BigInt(r.o)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const same = await replay(latencyTile);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data).toMatchObject({
      tile_id: latencyTile,
      dry_run: true,
      equal: true,
      events_replayed: 3,
      changes_total: 3,
      state: { status: 'ok', value: 250, version: 3 },
      live: { status: 'ok', value: 250, version: 3 },
    });
    expect((await replay(errorsTile)).body.data).toMatchObject({ equal: true, events_replayed: 3, state: { status: 'warning', value: 3 } });

    // A lower threshold: the engine starts the tile over (unknown) and waits for the next event; the replay shows what the new rule says of the past.
    expect((await request(url(`/api/v1/tiles/${latencyTile}`), { method: 'PUT', token: project.apiKey, body: { rule: latency(200) } })).status).toBe(200);
    await waitFor(async () => (await liveState(latencyTile)).status === 'unknown', { timeoutMs: 10_000, what: 'the engine adopting the new rule' });
    const before = await db.query('SELECT id, version FROM tile_state_history WHERE tile_id = $1 ORDER BY id', [latencyTile]);
    const changed = await replay(latencyTile, { dry_run: true });
    expect(changed.body.data).toMatchObject({
      equal: false,
      events_replayed: 3,
      state: { status: 'warning', value: 250 },
      live: { status: 'unknown', value: null },
    });
    // A dry run changes nothing.
    expect((await db.query('SELECT id, version FROM tile_state_history WHERE tile_id = $1 ORDER BY id', [latencyTile])).rows).toEqual(before.rows);
    expect((await liveState(latencyTile)).status).toBe('unknown');

    // Applied: the engine replaces the state and the history since the tile's creation with the replay's.
    const applied = await replay(latencyTile, { dry_run: false });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data).toMatchObject({
      dry_run: false,
      equal: false,
      events_replayed: 3,
      changes_total: 3,
      state: { status: 'warning', value: 250, version: 8 },
      live: { status: 'unknown', value: null, version: 4 },
    });
    expect(await liveState(latencyTile)).toMatchObject({ status: 'warning', value: 250, version: 8 });
    const history = async () =>
      (
        await db.query(
          'SELECT status, previous_status, value, version::int AS version, cause, event_id::text AS event_id, relay_stream FROM tile_state_history WHERE tile_id = $1 ORDER BY id',
          [latencyTile],
        )
      ).rows;
    // The replayed changes (not sent again: those transitions were told when they happened), then the one that moved the live state, sent.
    expect((await history()).map((r) => [r.previous_status, r.status, r.value, r.version, r.cause, r.relay_stream === null])).toEqual([
      ['unknown', 'ok', 120, 5, 'event', true],
      ['ok', 'warning', 300, 6, 'event', true],
      ['warning', 'warning', 250, 7, 'event', true],
      ['unknown', 'warning', 250, 8, 'rule', false],
    ]);
    expect((await replay(latencyTile)).body.data).toMatchObject({ equal: true, state: { status: 'warning', value: 250 } });

    // An event after the apply is applied once, on the replayed state.
    await send([{ type: 'metric', name: 'latency', attributes: { ms: 150 } }]);
    await waitFor(async () => (await liveState(latencyTile)).value === 150, { timeoutMs: 20_000, what: 'the next event evaluated' });
    expect(await liveState(latencyTile)).toMatchObject({ status: 'ok', value: 150, version: 9 });
    const after = await history();
    expect(after).toHaveLength(5);
    expect(after.at(-1)).toMatchObject({ previous_status: 'warning', status: 'ok', value: 150, version: 9, cause: 'event' });
    await waitFor(async () => (await stored()) === events.length + 1, { timeoutMs: 20_000, what: 'the next event stored' });
    expect((await replay(latencyTile)).body.data).toMatchObject({ equal: true, events_replayed: 4, state: { status: 'ok', value: 150 } });
  });

  it('refuses a since out of bounds with 400, another project’s tile with 404', async () => {
    const tile = (await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name: 'bounds', kind: 'metric', rule: errors } })).body.data
      .id as number;
    const tooOld = await replay(tile, { since: new Date(Date.now() - 25 * 3_600_000).toISOString() });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.error).toMatchObject({ code: 'validation_error', details: { since: ['must be at most 24 h ago'] } });
    const ahead = await replay(tile, { since: new Date(Date.now() + 60_000).toISOString() });
    expect(ahead.body.error).toMatchObject({ code: 'validation_error', details: { since: ['must not be in the future'] } });
    expect((await replay(tile, { dry_run: 'no' })).status).toBe(400);
    const other = await pipeline.provision();
    expect((await replay(tile, {}, other.apiKey)).status).toBe(404);
  });
});
