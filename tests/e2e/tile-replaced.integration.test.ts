import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

type Project = Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;

const latency = (warning: number) => ({
  filter: { type: 'metric', name: 'latency' },
  evaluation: { kind: 'threshold', attribute: 'ms', warning, critical: 10_000 },
});

/**
 * An applied replay (POST /tiles/:id/replay, dry_run false) replaces the
 * tile's history: the rule engine writes a tile-replacements message in the
 * replay's transaction (its outbox), and broadcast sends `tile_replaced` to
 * that project's subscribers only, so a dashboard reads the history again.
 */
describe('tile_replaced over the WebSocket after an applied replay', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcast: string;
  let db: pg.Pool;
  const sockets: TestSocket[] = [];
  const url = (path: string) => `${pipeline.url}${path}`;

  beforeAll(async () => {
    pipeline = await startPipeline();
    db = new pg.Pool({ connectionString: pipeline.env.DATABASE_URL, max: 2 });
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine()]);
    broadcast = (await pipeline.startBroadcast()).url;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await pipeline?.stop();
    await db?.end();
  });

  /** A project with one latency tile that has seen `values`, every event stored and evaluated. */
  const projectWithTile = async (values: number[]): Promise<{ project: Project; tile: number }> => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const created = await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name: 'Latency', kind: 'metric', rule: latency(500) } });
    const tile = created.body.data.id as number;
    for (const ms of values) {
      const res = await request(url('/ingest'), {
        token: project.apiKey,
        body: envelope(project.projectKey, { type: 'metric', name: 'latency', attributes: { ms } }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await waitFor(
      async () =>
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE project_key = $1', [project.projectKey])).rows[0]!.n === values.length,
      { timeoutMs: 20_000, what: 'every event stored' },
    );
    await waitFor(async () => (await request(url(`/api/v1/tiles/${tile}/state`), { token: project.apiKey })).body.data.value === values.at(-1), {
      timeoutMs: 20_000,
      what: 'every event evaluated',
    });
    return { project, tile };
  };
  const subscribed = async (project: Project): Promise<TestSocket> => {
    const socket = await TestSocket.open(broadcast, { headerToken: project.apiKey });
    sockets.push(socket);
    socket.send({ type: 'subscribe', project: project.projectKey });
    await socket.next((m) => m.type === 'subscribed');
    return socket;
  };
  const apply = async (project: Project, tile: number) => {
    const res = await request(url(`/api/v1/tiles/${tile}/replay`), { token: project.apiKey, body: { dry_run: false } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const replaced = (socket: TestSocket) => socket.messages.filter((m) => m.type === 'tile_replaced');

  it("reaches the tile's project's subscribers with the new state and since, and no subscriber of another project", async () => {
    const [a, b] = await Promise.all([projectWithTile([120, 300]), projectWithTile([120])]);
    // A lower threshold: the replay's verdict on the stored events differs from the live state.
    expect((await request(url(`/api/v1/tiles/${a.tile}`), { method: 'PUT', token: a.project.apiKey, body: { rule: latency(200) } })).status).toBe(200);
    const [watchingA, watchingB] = await Promise.all([subscribed(a.project), subscribed(b.project)]);

    const appliedA = await apply(a.project, a.tile);
    expect(appliedA).toMatchObject({ equal: false, state: { status: 'warning', value: 300 } });
    const message = await watchingA.next((m) => m.type === 'tile_replaced', { timeoutMs: 15_000 });
    expect(message).toEqual({
      type: 'tile_replaced',
      v: 1,
      project: a.project.projectKey,
      tile_id: a.tile,
      since: appliedA.since,
      until: appliedA.until,
      state: {
        status: 'warning',
        value: 300,
        version: appliedA.state.version,
        last_event_id: appliedA.state.last_event_id,
        changed_at: appliedA.state.changed_at,
      },
    });
    // What the client reads again: the replay's history, the live state's move to it last.
    const history = await request(url(`/api/v1/tiles/${a.tile}/history?since=${encodeURIComponent(message.since)}`), { token: a.project.apiKey });
    expect(history.body.data.map((h: { status: string; cause: string }) => [h.status, h.cause])).toEqual([
      ['warning', 'rule'],
      ['warning', 'event'],
      ['ok', 'event'],
    ]);

    // B's own replay reaches B's subscriber (which by then had every chance to get A's) and not A's.
    const appliedB = await apply(b.project, b.tile);
    expect(appliedB).toMatchObject({ equal: true });
    await watchingB.next((m) => m.type === 'tile_replaced', { timeoutMs: 15_000 });
    expect(replaced(watchingB).map((m) => [m.project, m.tile_id])).toEqual([[b.project.projectKey, b.tile]]);
    expect(replaced(watchingA).map((m) => [m.project, m.tile_id])).toEqual([[a.project.projectKey, a.tile]]);
  });
});
