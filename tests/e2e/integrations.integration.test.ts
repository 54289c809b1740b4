import { readFileSync } from 'node:fs';
import { Webhooks } from '@octokit/webhooks';
import { CloudEvent, HTTP } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, waitFor } from '@pulseboard/test-kit';
import { TILES } from '../../deploy/demo-tiles.ts';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../packages/contracts/src/integrations/fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe("each tool's own payload moves a tile and its WebSocket frame (issue 29)", () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcast: string;

  beforeAll(async () => {
    pipeline = await startPipeline();
    await pipeline.startRuleEngine();
    broadcast = (await pipeline.startBroadcast()).url;
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it('Alertmanager, GitHub, PagerDuty and CloudEvents senders change the demo tiles and every dashboard sees it', async () => {
    const project = await pipeline.provision();
    const tileIds: Record<string, number> = {};
    const extra = [
      {
        name: 'Disk incident',
        kind: 'alert',
        rule: { filter: { type: 'error', name: 'alert', attributes: { dedup_key: 'disk-db-1' } }, evaluation: { kind: 'up_down', attribute: 'resolved' } },
      },
      {
        name: 'CPU (CloudEvents)',
        kind: 'metric',
        rule: { filter: { type: 'metric', name: 'com.example.cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
      },
    ];
    for (const tile of [...TILES.filter((t) => t.name === 'GitHub deployments' || t.name === 'Alertmanager alerts'), ...extra]) {
      const made = await request(`${pipeline.url}/api/v1/tiles`, { token: project.userToken, body: { ...tile, project_key: project.projectKey } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      tileIds[tile.name] = made.body.data.id;
    }
    const secret = 'e2e-github-secret-0123456789';
    expect(
      (
        await request(`${pipeline.url}/api/v1/projects/${project.projectKey}/integrations/github`, {
          method: 'PUT',
          token: project.userToken,
          body: { secret },
        })
      ).status,
    ).toBe(200);

    const socket = await TestSocket.open(broadcast, { headerToken: project.userToken });
    await socket.next((m) => m.type === 'ready');
    socket.send({ type: 'subscribe', project: project.projectKey });
    await socket.next((m) => m.type === 'subscribed' && m.project === project.projectKey);
    const frame = (name: string, status: string) =>
      socket.next((m) => m.type === 'change' && m.change.tile_id === tileIds[name] && m.change.status === status, { timeoutMs: 30_000 });
    const state = async (name: string) => (await request(`${pipeline.url}/api/v1/tiles/${tileIds[name]}/state`, { token: project.apiKey })).body.data?.status;

    // Alertmanager: firing, then resolved.
    const firing = await request(`${pipeline.url}/api/v1/integrations/alertmanager`, { token: project.apiKey, body: fixture('alertmanager-resolved.json') });
    expect(firing.status).toBe(202);
    await frame('Alertmanager alerts', 'ok');
    const again = fixture('alertmanager-firing.json');
    (again.alerts as Record<string, unknown>[]).forEach((a) => (a.startsAt = new Date().toISOString()));
    expect((await request(`${pipeline.url}/api/v1/integrations/alertmanager`, { token: project.apiKey, body: again })).status).toBe(202);
    await frame('Alertmanager alerts', 'critical');
    expect(await state('Alertmanager alerts')).toBe('critical');

    // GitHub: a signed deployment_status, in progress then failed.
    for (const [deployState, status] of [
      ['in_progress', 'warning'],
      ['failure', 'critical'],
    ] as const) {
      const body = JSON.stringify({
        deployment_status: { state: deployState, environment: 'production', updated_at: new Date().toISOString(), creator: { login: 'octocat' } },
        deployment: { id: 42, sha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e', ref: 'main' },
        repository: { full_name: 'octo/app' },
      });
      const res = await request(`${pipeline.url}/api/v1/integrations/github?project_key=${project.projectKey}`, {
        rawBody: body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'deployment_status',
          'x-github-delivery': crypto.randomUUID(),
          'x-hub-signature-256': await new Webhooks({ secret }).sign(body),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      await frame('GitHub deployments', status);
    }

    // PagerDuty: trigger, then resolve, with the API key as routing_key.
    for (const [action, status] of [
      ['trigger', 'critical'],
      ['resolve', 'ok'],
    ] as const) {
      const res = await request(`${pipeline.url}/api/v1/integrations/pagerduty/v2/enqueue`, {
        body: {
          routing_key: project.apiKey,
          event_action: action,
          dedup_key: 'disk-db-1',
          payload: { summary: 'Disk 97% full on db-1', source: 'db-1', severity: 'critical' },
        },
      });
      expect(res.status).toBe(202);
      await frame('Disk incident', status);
    }

    // CloudEvents, binary mode as the SDK encodes it.
    const message = HTTP.binary(new CloudEvent({ type: 'com.example.cpu', source: 'urn:host:web-1', pbtype: 'metric', data: { value: 97 } }));
    const ce = await request(`${pipeline.url}/api/v1/integrations/cloudevents`, {
      rawBody: message.body as string,
      headers: { ...(message.headers as Record<string, string>), authorization: `Bearer ${project.apiKey}` },
    });
    expect(ce.status).toBe(202);
    await frame('CPU (CloudEvents)', 'critical');
    await waitFor(async () => (await state('CPU (CloudEvents)')) === 'critical', { timeoutMs: 10_000, what: 'the CloudEvents tile critical' });
    socket.close();
  });
});
