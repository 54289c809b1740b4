/**
 * The compose stack's smoke test (run by tests/compose/smoke.sh once the stack
 * is healthy): one event through every stage that exists. Provisioned through
 * the admin API, posted to /ingest, then: stored and readable, a tile's state
 * changed, the change on the WebSocket, a signed webhook at the receiver.
 * Exits non-zero with what went wrong.
 */
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { envelope, provisionProject, request, waitFor } from '@pulseboard/test-kit';
import { TestSocket } from '../e2e/ws-client.ts';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const broadcast = process.env.BROADCAST_URL ?? 'http://127.0.0.1:8081';
const receiver = process.env.RECEIVER_URL ?? 'http://127.0.0.1:18099';
const adminToken = process.env.ADMIN_TOKEN ?? '';

const step = (what: string) => console.log(`smoke: ${what}`);

async function main(): Promise<void> {
  const project = await provisionProject(gateway, adminToken);
  step(`project ${project.projectKey} provisioned through the admin API`);
  const hook = await request(`${gateway}/api/v1/notifications`, {
    token: project.userToken,
    body: { name: 'smoke', type: 'webhook', config: { url: 'http://receiver:8099/hook' } },
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const tile = await request(`${gateway}/api/v1/tiles`, {
    token: project.apiKey,
    body: {
      name: 'web',
      kind: 'uptime',
      rule: { filter: { type: 'uptime' }, evaluation: { kind: 'up_down', attribute: 'is_up' } },
      notification_service_ids: [hook.body.data.id],
    },
  });
  assert.equal(tile.status, 201, JSON.stringify(tile.body));
  const tileId = tile.body.data.id as number;

  const socket = await TestSocket.open(broadcast, { headerToken: project.apiKey });
  await socket.next((m) => m.type === 'ready');
  socket.send({ type: 'subscribe', project: project.projectKey });
  await socket.next((m) => m.type === 'subscribed');
  // The rule engine reads tile changes within its poll interval (500 ms by default).
  await new Promise((r) => setTimeout(r, 1500));

  const res = await request(`${gateway}/ingest`, {
    token: project.apiKey,
    body: envelope(project.projectKey, { type: 'uptime', name: 'http_check', attributes: { is_up: false } }),
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const eventId = res.body.event_id as number;
  step(`event ${eventId} accepted (201)`);

  await waitFor(async () => (await request(`${gateway}/api/v1/events/${eventId}`, { token: project.apiKey })).status === 200, {
    what: 'the event to be readable',
    timeoutMs: 30_000,
  });
  step('stored and readable through GET /api/v1/events/:id');
  await waitFor(async () => (await request(`${gateway}/api/v1/tiles/${tileId}/state`, { token: project.apiKey })).body.data?.status === 'critical', {
    what: 'the tile to turn critical',
    timeoutMs: 30_000,
  });
  step('tile state critical (GET /api/v1/tiles/:id/state)');
  const change = await socket.next((m) => m.type === 'change' && m.change.tile_id === tileId, { timeoutMs: 30_000 });
  assert.equal(change.change.event_id, eventId);
  step(`WebSocket change at position ${change.change.position}`);
  socket.close();

  let delivered: { path: string; headers: Record<string, string>; body: string } | undefined;
  await waitFor(
    async () => {
      const all = (await (await fetch(`${receiver}/received`)).json()) as (typeof delivered)[];
      delivered = all.find((r) => r!.path === '/hook');
      return delivered !== undefined;
    },
    { what: 'the webhook notification at the receiver', timeoutMs: 30_000 },
  );
  const payload = new Webhook(hook.body.data.config.secret).verify(delivered!.body, delivered!.headers) as {
    type: string;
    data: { tile_id: number; status: string };
  };
  assert.equal(payload.type, 'tile.status_changed');
  assert.equal(payload.data.tile_id, tileId);
  assert.equal(payload.data.status, 'critical');
  step('webhook notification received, Standard Webhooks signature verified');
}

await main();
