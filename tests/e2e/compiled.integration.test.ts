import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { serviceNames } from '@pulseboard/db';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { httpReceiver } from './receivers.ts';
import { TestSocket } from './ws-client.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVICES = serviceNames(root);

/**
 * What production runs: every service from its compiled dist/ (deploy/build.sh,
 * run by the test command first), with only Node, no tsx. One event goes the
 * whole way: stored and readable, a tile state change, its WebSocket message
 * and a signed webhook notification.
 */
describe('the compiled services (dist/), as production runs them', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcastUrl: string;
  let receiver: Awaited<ReturnType<typeof httpReceiver>>;

  beforeAll(async () => {
    const missing = SERVICES.filter((s) => !existsSync(`${root}services/${s}/dist/main.js`));
    if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')} (run pnpm build, as deploy/test.sh does)`);
    receiver = await httpReceiver(() => ({ status: 204 }));
    pipeline = await startPipeline({ NOTIFY_ALLOW_TARGETS: receiver.target }, { compiled: true });
    await pipeline.startStore();
    await pipeline.startRuleEngine();
    broadcastUrl = (await pipeline.startBroadcast()).url;
    await pipeline.startNotification();
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
    await receiver?.close();
  });

  it('run from dist/ without tsx', () => {
    expect(pipeline.gateway.child.spawnargs.slice(1)).toEqual([`services/gateway/dist/main.js`]);
  });

  it('take an event through store, rule engine, broadcast and notification', async () => {
    const project = await pipeline.provision();
    const service = await request(`${pipeline.url}/api/v1/notifications`, {
      token: project.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } },
    });
    expect(service.status).toBe(201);
    const tile = await request(`${pipeline.url}/api/v1/tiles`, {
      token: project.apiKey,
      body: {
        name: 'web up',
        kind: 'uptime',
        rule: { filter: { type: 'uptime' }, evaluation: { kind: 'up_down', attribute: 'is_up' } },
        notification_service_ids: [service.body.data.id],
      },
    });
    expect(tile.status, JSON.stringify(tile.body)).toBe(201);
    const tileId = tile.body.data.id;
    const socket = await TestSocket.open(broadcastUrl, { headerToken: project.apiKey });
    await socket.next((m) => m.type === 'ready');
    socket.send({ type: 'subscribe', project: project.projectKey });
    await socket.next((m) => m.type === 'subscribed' && m.project === project.projectKey);

    // The rules cache picks the new tile up within its poll interval.
    await new Promise((r) => setTimeout(r, 1000));
    const res = await request(`${pipeline.url}/ingest`, {
      token: project.apiKey,
      body: envelope(project.projectKey, { type: 'uptime', name: 'http_check', attributes: { is_up: false } }),
    });
    expect(res.status).toBe(201);
    const eventId = res.body.event_id as number;

    await waitFor(async () => (await request(`${pipeline.url}/api/v1/events/${eventId}`, { token: project.apiKey })).status === 200, {
      what: 'the event stored',
    });
    await waitFor(async () => (await request(`${pipeline.url}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data?.status === 'critical', {
      what: 'the tile critical',
    });
    const change = await socket.next((m) => m.type === 'change' && m.change.tile_id === tileId);
    expect(change.change).toMatchObject({ status: 'critical', event_id: eventId, project_key: project.projectKey });
    await waitFor(() => receiver.received.some((r) => r.path === '/hook'), { what: 'the webhook notification' });
    const delivery = receiver.received.find((r) => r.path === '/hook')!;
    const payload = new Webhook(service.body.data.config.secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({ type: 'tile.status_changed', data: { tile_id: tileId, status: 'critical', event_id: eventId } });
    socket.close();
  });
});
