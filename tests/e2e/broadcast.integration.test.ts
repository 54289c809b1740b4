import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_CLOSE } from '@pulseboard/contracts';
import { envelope, request, TEST_ADMIN_TOKEN, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

type Pipeline = Awaited<ReturnType<typeof startPipeline>>;
type Project = Awaited<ReturnType<Pipeline['provision']>>;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CPU_RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

describe('broadcast: live tile changes over WebSocket, from the rule engine through Kafka (CONTRACT Real-time broadcast)', () => {
  let pipeline: Pipeline;
  let broadcast: string;
  let first: Awaited<ReturnType<Pipeline['startBroadcast']>>;
  let engine: Awaited<ReturnType<Pipeline['startRuleEngine']>>;
  let second: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    pipeline = await startPipeline();
    engine = await pipeline.startRuleEngine();
    first = await pipeline.startBroadcast({ BROADCAST_RESUME_MAX_CHANGES: '5', BROADCAST_MAX_BUFFERED_BYTES: '16384' });
    broadcast = first.url;
    second = (await pipeline.startBroadcast()).url;
  }, 180_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await pipeline?.stop();
  });

  const open = async (base: string, options: { headerToken?: string; autoPong?: boolean } = {}) => {
    const socket = await TestSocket.open(base, options);
    sockets.push(socket);
    return socket;
  };
  const projectWithTile = async (name = 'CPU'): Promise<{ project: Project; tile: number }> => {
    const project = await pipeline.provision({ burstLimit: 100_000, hourlyLimit: 100_000 });
    const res = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name, kind: 'metric', rule: CPU_RULE } });
    expect(res.status).toBe(201);
    return { project, tile: res.body.data.id };
  };
  const cpu = async (project: Project, value: number) => {
    const res = await request(`${pipeline.url}/ingest`, {
      token: project.apiKey,
      body: envelope(project.projectKey, { type: 'metric', name: 'cpu', timestamp: new Date().toISOString(), attributes: { value } }),
    });
    expect(res.status).toBe(201);
    return res.body.event_id as number;
  };
  const subscribed = async (socket: TestSocket, project: string, since?: number) => {
    const from = socket.messages.length;
    socket.send(since === undefined ? { type: 'subscribe', project } : { type: 'subscribe', project, since });
    return socket.next((m) => m.type === 'subscribed' && m.project === project, { from });
  };

  it('one message per change with tile, project, status, value, version, event id and time; a snapshot first', async () => {
    const { project, tile } = await projectWithTile();
    const socket = await open(broadcast, { headerToken: project.apiKey });
    const ready = await socket.next((m) => m.type === 'ready');
    expect(ready.projects).toEqual([expect.objectContaining({ project_key: project.projectKey })]);
    await subscribed(socket, project.projectKey);
    expect(socket.messages.find((m) => m.type === 'snapshot')).toMatchObject({
      project: project.projectKey,
      position: 0,
      tiles: [{ tile_id: tile, tile_name: 'CPU', status: 'unknown', version: 0, value: null }],
    });

    const eventId = await cpu(project, 90);
    const change = (await socket.next((m) => m.type === 'change')).change;
    expect(change).toMatchObject({
      tile_id: tile,
      project_key: project.projectKey,
      tile_name: 'CPU',
      status: 'warning',
      previous_status: 'unknown',
      value: 90,
      version: 1,
      event_id: eventId,
      cause: 'event',
    });
    expect(new Date(change.changed_at).toISOString()).toBe(change.changed_at);
    expect(change.position).toBeGreaterThan(0);
  });

  it('resume after a disconnect: exactly the missed changes, in order; too old a position: a snapshot', async () => {
    const { project } = await projectWithTile();
    const first = await open(broadcast);
    first.send({ type: 'auth', token: project.userToken });
    await first.next((m) => m.type === 'ready');
    await subscribed(first, project.projectKey);
    await cpu(project, 10);
    const seen = (await first.next((m) => m.type === 'change')).change.position;
    first.close();

    for (const value of [20, 85, 97]) await cpu(project, value);
    // Wait until all three are in the history (seen live by another client).
    const watcher = await open(second, { headerToken: project.apiKey });
    await subscribed(watcher, project.projectKey);
    await watcher.next((m) => (m.type === 'snapshot' && m.tiles[0]?.version === 4) || (m.type === 'change' && m.change.version === 4));

    const resumed = await open(second, { headerToken: project.userToken });
    const ack = await subscribed(resumed, project.projectKey, seen);
    expect(ack.resumed).toBe(true);
    expect(resumed.messages.some((m) => m.type === 'snapshot')).toBe(false);
    expect(resumed.changes().map((c) => [c.value, c.status, c.version])).toEqual([
      [20, 'ok', 2],
      [85, 'warning', 3],
      [97, 'critical', 4],
    ]);
    // Then live, with no gap and no repeat.
    await cpu(project, 50);
    await resumed.next((m) => m.type === 'change' && m.change.version === 5);
    expect(resumed.changes().map((c) => c.version)).toEqual([2, 3, 4, 5]);

    // This instance keeps at most 5 missed changes for a resume: 5 more, and the position is too old.
    for (const value of [1, 2, 3, 4, 5, 6]) await cpu(project, value);
    await resumed.next((m) => m.type === 'change' && m.change.version === 11);
    const late = await open(broadcast, { headerToken: project.apiKey });
    const lateAck = await subscribed(late, project.projectKey, seen);
    expect(lateAck.resumed).toBe(false);
    expect(late.messages.find((m) => m.type === 'snapshot')).toMatchObject({ tiles: [{ value: 6, version: 11 }] });
    expect(late.changes()).toEqual([]);
  });

  it('two broadcast instances both deliver every change', async () => {
    const { project } = await projectWithTile();
    const a = await open(broadcast, { headerToken: project.apiKey });
    const b = await open(second, { headerToken: project.apiKey });
    await subscribed(a, project.projectKey);
    await subscribed(b, project.projectKey);
    for (const value of [10, 90, 99]) await cpu(project, value);
    for (const socket of [a, b]) await socket.next((m) => m.type === 'change' && m.change.version === 3);
    expect(a.changes().map((c) => c.position)).toEqual(b.changes().map((c) => c.position));
  });

  it("refuses a foreign project's subscription and a bad credential; closes a regenerated key's connection within a second", async () => {
    const { project } = await projectWithTile();
    const other = await projectWithTile();
    const socket = await open(broadcast, { headerToken: project.apiKey });
    await socket.next((m) => m.type === 'ready');
    socket.send({ type: 'subscribe', project: other.project.projectKey });
    expect(await socket.next((m) => m.type === 'error')).toMatchObject({ code: 'project_not_found', project: other.project.projectKey });

    await expect(TestSocket.open(broadcast, { headerToken: 'evk_not-a-key' })).rejects.toThrow(/401/);
    const late = await open(broadcast);
    late.send({ type: 'auth', token: 'evu_not-a-token' });
    expect((await late.waitClosed()).code).toBe(BROADCAST_CLOSE.authFailed);
    const garbled = await open(broadcast, { headerToken: project.apiKey });
    garbled.ws.send('{not json');
    expect((await garbled.waitClosed()).code).toBe(BROADCAST_CLOSE.badMessage);

    const regenerated = await request(`${pipeline.url}/api/v1/projects/${project.projectKey}/regenerate_key`, {
      token: project.userToken,
      body: { confirm: true },
    });
    expect(regenerated.status).toBe(200);
    const at = Date.now();
    expect((await socket.waitClosed(3000)).code).toBe(BROADCAST_CLOSE.credentialRevoked);
    expect(Date.now() - at).toBeLessThan(1000);
  });

  it('closes a socket that does not authenticate in time with 4002, and drops a peer that stops answering pings', async () => {
    const strict = await pipeline.startBroadcast({ BROADCAST_AUTH_TIMEOUT_MS: '300', BROADCAST_HEARTBEAT_MS: '300' });
    const { project } = await projectWithTile();
    const silent = await open(strict.url);
    expect((await silent.waitClosed(5000)).code).toBe(BROADCAST_CLOSE.authTimeout);

    const alive = await open(strict.url, { headerToken: project.apiKey });
    const dead = await open(strict.url, { headerToken: project.apiKey, autoPong: false });
    await alive.next((m) => m.type === 'ready');
    await dead.next((m) => m.type === 'ready');
    // Terminated, not closed with a code: the peer is presumed gone.
    expect((await dead.waitClosed(5000)).code).toBe(1006);
    // The peer that answers every ping stays, and still gets changes.
    expect(alive.closed).toBeUndefined();
    expect(await subscribed(alive, project.projectKey)).toMatchObject({ type: 'subscribed', project: project.projectKey });
    const eventId = await cpu(project, 99);
    expect(await alive.next((m) => m.type === 'change' && m.change.event_id === eventId)).toMatchObject({ change: { status: 'critical' } });
  });

  it('the example client prints live changes, and gives up (exit 1) on a refused credential instead of retrying forever', async () => {
    const { project } = await projectWithTile('Example');
    const example = (token: string) =>
      spawn(process.execPath, ['--import', 'tsx', 'services/broadcast/examples/client.ts', `${broadcast.replace(/^http/, 'ws')}/ws`, project.projectKey], {
        cwd: ROOT,
        env: { ...process.env, PULSEBOARD_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const refused = example('evk_not-a-key');
    let refusedErr = '';
    refused.stderr.on('data', (c: Buffer) => (refusedErr += c.toString()));
    const [code] = (await once(refused, 'exit')) as [number];
    expect(code).toBe(1);
    expect(refusedErr).toContain('credential refused (HTTP 401)');

    const client = example(project.apiKey);
    let out = '';
    client.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      // Subscribed (its snapshot printed) before the change, so the change arrives live.
      await waitFor(() => out.includes('Example: unknown'), { timeoutMs: 15000, what: 'the example client to print its snapshot' });
      await cpu(project, 97);
      await waitFor(() => /Example: unknown -> critical \(97\) v1/.test(out), { timeoutMs: 10000, what: 'the example client to print the change' });
    } finally {
      client.kill('SIGTERM');
    }
  });

  it("a user's connection may subscribe to a project its account created after it connected", async () => {
    const { project } = await projectWithTile();
    const socket = await open(broadcast, { headerToken: project.userToken });
    const ready = await socket.next((m) => m.type === 'ready');
    const laterKey = `${project.projectKey}-later`;
    const created = await request(`${pipeline.url}/api/v1/admin/accounts/${project.accountId}/projects`, {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: laterKey, name: 'Later' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(ready.projects.map((p: { project_key: string }) => p.project_key)).not.toContain(laterKey);
    expect(await subscribed(socket, laterKey)).toMatchObject({ type: 'subscribed', project: laterKey });
  });

  it("a deleted project ends its subscriptions within a second: a user's connection stays for its other projects, the project key's closes", async () => {
    const { project } = await projectWithTile();
    const goneKey = `${project.projectKey}-gone`;
    const created = await request(`${pipeline.url}/api/v1/admin/accounts/${project.accountId}/projects`, {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: goneKey, name: 'Gone' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = await open(broadcast, { headerToken: project.userToken });
    await user.next((m) => m.type === 'ready');
    await subscribed(user, project.projectKey);
    await subscribed(user, goneKey);
    const byKey = await open(broadcast, { headerToken: created.body.api_key as string });
    await byKey.next((m) => m.type === 'ready');
    await subscribed(byKey, goneKey);

    const from = user.messages.length;
    expect((await request(`${pipeline.url}/api/v1/admin/projects/${goneKey}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN })).status).toBe(204);
    const at = Date.now();
    expect(await user.next((m) => m.type === 'unsubscribed', { from, timeoutMs: 3000 })).toEqual({
      type: 'unsubscribed',
      project: goneKey,
      reason: 'project_deleted',
    });
    expect((await byKey.waitClosed(3000)).code).toBe(BROADCAST_CLOSE.credentialRevoked);
    expect(Date.now() - at).toBeLessThan(1000);

    // The user's connection lives on for its other project, and the deleted one cannot be subscribed to again.
    expect(user.closed).toBeUndefined();
    const eventId = await cpu(project, 99);
    expect(await user.next((m) => m.type === 'change' && m.change.event_id === eventId)).toMatchObject({
      change: { project_key: project.projectKey, status: 'critical' },
    });
    user.send({ type: 'subscribe', project: goneKey });
    expect(await user.next((m) => m.type === 'error' && m.project === goneKey)).toMatchObject({ code: 'project_not_found' });
  });

  it("closes a deleted user's connections within a second", async () => {
    const { project } = await projectWithTile();
    const socket = await open(broadcast, { headerToken: project.userToken });
    await socket.next((m) => m.type === 'ready');
    await subscribed(socket, project.projectKey);
    const users = await request(`${pipeline.url}/api/v1/admin/accounts/${project.accountId}/users`, { token: TEST_ADMIN_TOKEN });
    expect(users.status).toBe(200);
    const user = (users.body.data as { id: number }[])[0]!;
    expect((await request(`${pipeline.url}/api/v1/admin/users/${user.id}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN })).status).toBe(204);
    const at = Date.now();
    expect((await socket.waitClosed(3000)).code).toBe(BROADCAST_CLOSE.credentialRevoked);
    expect(Date.now() - at).toBeLessThan(1000);
  });

  it('cuts a slow client with 4008 while the others keep receiving', async () => {
    // Fifty tiles with long names: each event makes fifty big messages, so the kernel's socket buffers fill.
    const { project, tile } = await projectWithTile('CPU '.repeat(49));
    for (let i = 1; i < 50; i++) {
      const res = await request(`${pipeline.url}/api/v1/tiles`, {
        token: project.apiKey,
        body: { name: `${'CPU '.repeat(49)}${i}`, kind: 'metric', rule: CPU_RULE },
      });
      expect(res.status).toBe(201);
    }
    const slow = await open(broadcast, { headerToken: project.apiKey });
    const fast = await open(broadcast, { headerToken: project.apiKey });
    await subscribed(slow, project.projectKey);
    await subscribed(fast, project.projectKey);
    // The slow client stops reading: the server's send buffer for it passes 16 kB.
    const socketOf = (s: TestSocket) => (s.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socketOf(slow).pause();
    // It reads again as soon as the server has given up on it: a client that does not read for seconds after the
    // close cannot see the close frame (the server then terminates the socket), so this watches while events flow.
    const slowClosed = async () =>
      /pulseboard_broadcast_connections_closed_total\{reason="slow_consumer"\} [1-9]/.test(await (await fetch(`${broadcast}/metrics`)).text());
    let cutSeen = false;
    const cut = waitFor(slowClosed, { timeoutMs: 120000, intervalMs: 25, what: 'the server to close the slow client' }).then(() => {
      cutSeen = true;
      socketOf(slow).resume();
      return slow.waitClosed();
    });
    // Events flow until the server has given up on the slow client: how many that takes depends on
    // the kernel's socket buffers (autotuned) and the machine's speed, not on a count fixed here.
    let sent = 0;
    while (!cutSeen && sent < 1500) await cpu(project, sent++ / 10);
    expect((await cut).code).toBe(BROADCAST_CLOSE.slowConsumer);
    expect(slow.changes().length).toBeLessThan(sent * 50);
    // The engine keeps the newest value by event time; the fast client is current when it holds the version the state API shows.
    const version = async () => (await request(`${pipeline.url}/api/v1/tiles/${tile}/state`, { token: project.apiKey })).body.data.version as number;
    const lastSeen = () =>
      fast
        .changes()
        .filter((c) => c.tile_id === tile)
        .at(-1)?.version;
    await waitFor(async () => (await version()) === sent && lastSeen() === sent, { timeoutMs: 60000, what: 'the fast client to be current' });
    await waitFor(() => fast.changes().length === sent * 50, { timeoutMs: 10000, what: 'every change at the fast client' }).catch(async (error: unknown) => {
      const positions = fast.changes().map((c) => c.position as number);
      const backwards = positions.filter((p, i) => i > 0 && p <= positions[i - 1]!);
      const logs = [...first.process.logs, ...engine.logs].filter((l) => !l.includes('"level":30') || /group|rebalanc|join|fenced|failed|crash/i.test(l));
      // Which versions of which tiles never arrived (each of the 50 tiles goes through versions 1..sent).
      const byTile = new Map<number, Set<number>>();
      for (const c of fast.changes()) (byTile.get(c.tile_id) ?? byTile.set(c.tile_id, new Set()).get(c.tile_id)!).add(c.version);
      const missing = [...byTile]
        .map(
          ([id, versions]) =>
            `${id}:${Array.from({ length: sent }, (_, i) => i + 1)
              .filter((v) => !versions.has(v))
              .join('/')}`,
        )
        .filter((m) => !m.endsWith(':'));
      const metrics = await (await fetch(`${broadcast}/metrics`)).text();
      throw new Error(
        `${String(error)}; received ${positions.length}, positions ${positions[0]}..${positions.at(-1)}, backwards ${backwards.length}, missing ${missing.slice(0, 20).join(',')}\n${metrics
          .split('\n')
          .filter((l) => l.startsWith('pulseboard_broadcast_'))
          .join('\n')}\nbroadcast logs:\n${logs.slice(-40).join('\n')}`,
      );
    });
    expect(fast.closed).toBeUndefined();
  }, 240_000);
});
