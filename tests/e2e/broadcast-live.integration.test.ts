import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

type Pipeline = Awaited<ReturnType<typeof startPipeline>>;

const RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };
// Six: the filter test's six events fit in one second's worth, the burst of sixty does not.
const TAIL_RATE = 6;

describe('broadcast: tile definitions and the live event tail (issues 23 and 28)', () => {
  let pipeline: Pipeline;
  let broadcast: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    // No rule engine runs here: the webhooks endpoint does not wait for rule outcomes.
    pipeline = await startPipeline({ WEBHOOK_OUTCOME_TIMEOUT_MS: '0' });
    // No rule engine: tile messages come from the control feed, tails from the events topic.
    broadcast = (await pipeline.startBroadcast({ BROADCAST_TAIL_MAX_PER_SECOND: String(TAIL_RATE) })).url;
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await pipeline?.stop();
  });

  const open = async (token: string) => {
    const socket = await TestSocket.open(broadcast, { headerToken: token });
    sockets.push(socket);
    await socket.next((m) => m.type === 'ready');
    return socket;
  };
  const ingest = async (apiKey: string, events: Record<string, unknown>[]) => {
    // A batch through the webhooks endpoint (one request, one Kafka batch).
    const res = await request(`${pipeline.url}/api/v1/webhooks`, { token: apiKey, body: { events } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
  };

  it('a tile created, renamed and deleted through the API reaches a subscriber as tile_added, tile_updated, tile_removed', async () => {
    const project = await pipeline.provision();
    const socket = await open(project.userToken);
    socket.send({ type: 'subscribe', project: project.projectKey });
    await socket.next((m) => m.type === 'subscribed');
    const latency: Record<string, number> = {};
    const timed = async (what: string, call: () => Promise<{ status: number; body: any }>, match: (m: any) => boolean) => {
      const from = socket.messages.length;
      const res = await call();
      const answered = Date.now();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      const message = await socket.next(match, { from, timeoutMs: 5000 });
      latency[what] = Date.now() - answered;
      return { res, message };
    };

    const created = await timed(
      'added',
      () => request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU', kind: 'metric', rule: RULE } }),
      (m) => m.type === 'tile_added',
    );
    const id = created.res.body.data.id as number;
    expect(created.message).toMatchObject({
      v: 1,
      project: project.projectKey,
      tile: { tile_id: id, tile_name: 'CPU', kind: 'metric', position: 0, rule: RULE, settings: {} },
    });
    expect(created.message.revision).toBeGreaterThan(1);

    const renamed = await timed(
      'updated',
      () => request(`${pipeline.url}/api/v1/tiles/${id}`, { method: 'PUT', token: project.apiKey, body: { name: 'CPU load' } }),
      (m) => m.type === 'tile_updated',
    );
    expect(renamed.message).toMatchObject({ v: 1, project: project.projectKey, changed: ['name'], tile: { tile_id: id, tile_name: 'CPU load', rule: RULE } });
    expect(renamed.message.revision).toBeGreaterThan(created.message.revision);

    const deleted = await timed(
      'removed',
      () => request(`${pipeline.url}/api/v1/tiles/${id}`, { method: 'DELETE', token: project.apiKey }),
      (m) => m.type === 'tile_removed',
    );
    expect(deleted.message).toMatchObject({ v: 1, project: project.projectKey, tile_id: id });
    // Once each: a repeated control message (at-least-once relay) does not repeat a tile message.
    expect(socket.messages.filter((m) => m.type.startsWith('tile_')).map((m) => m.type)).toEqual(['tile_added', 'tile_updated', 'tile_removed']);
    console.log(`tile message latency from the API's answer to the subscriber (ms): ${JSON.stringify(latency)}`);

    // A new subscriber's snapshot carries what a dashboard draws of each tile.
    await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'Errors', kind: 'status', rule: RULE, position: 3 } });
    const late = await open(project.apiKey);
    late.send({ type: 'subscribe', project: project.projectKey });
    expect(await late.next((m) => m.type === 'snapshot')).toMatchObject({
      tiles: [{ tile_name: 'Errors', kind: 'status', tile_position: 3, rule: RULE, settings: {} }],
    });
  });

  it('a tail sends the project’s matching events (filters of GET /events), none of another project, and no more than its rate: the rest counted as skipped', async () => {
    const project = await pipeline.provision({ burstLimit: 100_000, hourlyLimit: 100_000 });
    const other = await pipeline.provision({ burstLimit: 100_000, hourlyLimit: 100_000 });
    const filtered = await open(project.userToken);
    const everything = await open(project.apiKey);

    // Another tenant's project looks like one that does not exist.
    everything.send({ type: 'tail', v: 1, project: other.projectKey });
    expect(await everything.next((m) => m.type === 'error')).toMatchObject({ code: 'project_not_found', project: other.projectKey });

    const filters = { type: 'error', severity: 'critical', channel: 'api', label: ['prod'] };
    filtered.send({ type: 'tail', v: 1, project: project.projectKey, filters });
    everything.send({ type: 'tail', v: 1, project: project.projectKey });
    expect(await filtered.next((m) => m.type === 'tailing', { timeoutMs: 30_000 })).toEqual({
      type: 'tailing',
      v: 1,
      project: project.projectKey,
      filters,
      max_per_second: TAIL_RATE,
    });
    await everything.next((m) => m.type === 'tailing', { timeoutMs: 30_000 });

    const match = (name: string) =>
      envelope(project.projectKey, { type: 'error', name, severity: 'critical', channel: 'api', labels: ['prod', 'eu'], attributes: {} });
    // The same event in the other project, and near misses on each filter.
    await ingest(other.apiKey, [
      envelope(other.projectKey, { type: 'error', name: 'theirs', severity: 'critical', channel: 'api', labels: ['prod'], attributes: {} }),
    ]);
    await ingest(project.apiKey, [
      match('wanted-1'),
      { ...match('wrong-type'), type: 'metric' },
      { ...match('wrong-severity'), severity: 'error' },
      { ...match('wrong-channel'), channel: 'web' },
      { ...match('no-label'), labels: ['eu'] },
      match('wanted-2'),
    ]);
    await filtered.next((m) => m.type === 'event' && m.event.name === 'wanted-2');
    await everything.next((m) => m.type === 'event' && m.event.name === 'wanted-2');
    const names = (s: TestSocket) => s.messages.filter((m) => m.type === 'event').map((m) => m.event.name);
    expect(names(filtered)).toEqual(['wanted-1', 'wanted-2']);
    expect(names(everything)).toEqual(['wanted-1', 'wrong-type', 'wrong-severity', 'wrong-channel', 'no-label', 'wanted-2']);
    expect(filtered.messages.find((m) => m.type === 'event')).toMatchObject({
      v: 1,
      project: project.projectKey,
      event: { project_key: project.projectKey, type: 'error', labels: ['prod', 'eu'] },
    });

    // A burst far over the rate: some go out, every other one is counted, nothing is queued.
    const from = everything.messages.length;
    const burst = Array.from({ length: 60 }, (_, i) => match(`burst-${i}`));
    const started = Date.now();
    await ingest(project.apiKey, burst);
    const counted = () => {
      const after = everything.messages.slice(from);
      const sent = after.filter((m) => m.type === 'event').length;
      const skipped = after.filter((m) => m.type === 'skipped').reduce((n, m) => n + m.count, 0);
      return { sent, skipped };
    };
    await waitFor(() => counted().sent + counted().skipped === burst.length, { timeoutMs: 10_000, what: 'every burst event sent or counted as skipped' });
    const { sent, skipped } = counted();
    const seconds = (Date.now() - started) / 1000;
    console.log(`tail of a ${burst.length}-event burst at ${TAIL_RATE}/s: ${sent} sent, ${skipped} skipped in ${seconds.toFixed(1)} s`);
    expect(skipped).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(TAIL_RATE + Math.ceil(TAIL_RATE * seconds));
    expect(everything.messages.slice(from).find((m) => m.type === 'skipped')).toMatchObject({ v: 1, project: project.projectKey, reason: 'rate' });
    // Never another project's event, on either socket.
    for (const s of [filtered, everything]) expect(s.messages.filter((m) => m.type === 'event' && m.project !== project.projectKey)).toEqual([]);

    everything.send({ type: 'untail', project: project.projectKey });
    expect(await everything.next((m) => m.type === 'untailed')).toEqual({ type: 'untailed', v: 1, project: project.projectKey });
  });

  it('a tail opened and closed leaves broadcast ready: its consumer stops and /readyz still answers 200 (issue 41)', async () => {
    // Its own instance, the tail's consumer stopping 100 ms after the last tail ends.
    const own = await pipeline.startBroadcast({ BROADCAST_TAIL_LINGER_MS: '100' });
    await waitFor(async () => (await request(`${own.url}/readyz`)).status === 200, { what: 'broadcast ready before any tail' });
    const project = await pipeline.provision();
    const socket = await TestSocket.open(own.url, { headerToken: project.apiKey });
    sockets.push(socket);
    await socket.next((m) => m.type === 'ready');
    socket.send({ type: 'tail', v: 1, project: project.projectKey });
    await socket.next((m) => m.type === 'tailing', { timeoutMs: 30_000 });
    socket.send({ type: 'untail', project: project.projectKey });
    await socket.next((m) => m.type === 'untailed');
    await waitFor(() => own.process.logs.some((line) => line.includes('"tail_feed_stopped"')), { timeoutMs: 15_000, what: "the tail's consumer stopped" });
    const ready = await request(`${own.url}/readyz`);
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    // And again: a second tail starts a consumer of its own, and its end leaves readiness as it was.
    const from = socket.messages.length;
    socket.send({ type: 'tail', v: 1, project: project.projectKey });
    await socket.next((m) => m.type === 'tailing', { from, timeoutMs: 30_000 });
    socket.close();
    await waitFor(() => own.process.logs.filter((line) => line.includes('"tail_feed_stopped"')).length === 2, {
      timeoutMs: 15_000,
      what: 'the second consumer stopped',
    });
    expect((await request(`${own.url}/readyz`)).status).toBe(200);
  });
});
