import { readFileSync } from 'node:fs';
import { CloudEvent, emitterFor, httpTransport, Mode, type Message } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTopic, request } from '@pulseboard/test-kit';
import { ingestTestGateway, type IngestTestGateway, type Project } from '../../../test/ingest-test-kit.ts';

// The vendors' payloads the mapping units use (packages/contracts/src/integrations/fixtures/README.md says where each is from).
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../packages/contracts/src/integrations/fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const EVT = /^evt_\d+$/;

interface OnTopic {
  id: number;
  project_key: string;
  type: string;
  name: string;
  timestamp: string;
  severity?: string;
  source?: string;
  correlation_id?: string;
  labels?: string[];
  attributes: Record<string, unknown>;
}

describe('integration endpoints: Alertmanager, PagerDuty Events v2, CloudEvents', () => {
  let gw: IngestTestGateway;
  let project: Project;
  const onTopic = async (projectKey: string) => (await readTopic(gw.topic)).filter((m) => m.key === projectKey).map((m) => JSON.parse(m.value!) as OnTopic);
  const post = (path: string, init: Parameters<typeof request>[1]) => request(`${gw.url}/api/v1/integrations/${path}`, init);

  beforeAll(async () => {
    gw = await ingestTestGateway();
    project = await gw.provision();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  describe('POST /api/v1/integrations/alertmanager', () => {
    it("takes Alertmanager's webhook with the project's key: one event per alert, fingerprint as correlation_id, labels kept", async () => {
      const p = await gw.provision();
      const res = await post('alertmanager', { token: p.apiKey, body: fixture('alertmanager-firing.json') });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        status: 'accepted',
        count: 2,
        processed_at: expect.any(String),
        events: [{ event_id: expect.stringMatching(EVT) }, { event_id: expect.stringMatching(EVT) }],
      });
      expect(res.headers.get('x-burst-remaining')).not.toBeNull();
      const resolved = await post('alertmanager', { token: p.apiKey, body: fixture('alertmanager-resolved.json') });
      expect(resolved.status).toBe(202);
      const events = await onTopic(p.projectKey);
      expect(events.map((e) => [e.type, e.name, e.correlation_id, e.severity, e.attributes.status])).toEqual([
        ['error', 'alert', 'c3f3c1d7b1a2e4f5', 'critical', 'firing'],
        ['error', 'alert', '8e1f0c2a9b7d6e55', 'critical', 'firing'],
        ['error', 'alert', 'c3f3c1d7b1a2e4f5', 'info', 'resolved'],
      ]);
      expect(events[0]).toMatchObject({
        project_key: p.projectKey,
        source: 'alertmanager',
        labels: expect.arrayContaining(['alertname=HighErrorRate']),
        attributes: { annotations: { summary: 'API error rate above 5%' } },
      });
    });

    it('counts a mapped batch as its number of events, all or nothing: a quota of 1 refuses two alerts and stores neither', async () => {
      const p = await gw.provision({ monthlyQuota: 1 });
      const res = await gw.expectProducedNothing(() => post('alertmanager', { token: p.apiKey, body: fixture('alertmanager-firing.json') }));
      expect(res.status).toBe(402);
      expect(res.body.error.code).toBe('quota_exceeded');
      expect((await post('alertmanager', { token: p.apiKey, body: fixture('alertmanager-resolved.json') })).status).toBe(202);
    });

    it('refuses bad input in the envelope shape, never a 5xx, and produces nothing', async () => {
      const alert = (fixture('alertmanager-firing.json').alerts as unknown[])[0];
      const cases: [Parameters<typeof request>[1], number, string][] = [
        [{ body: fixture('alertmanager-firing.json') }, 401, 'authentication_required'],
        [{ token: 'evk_wrong', body: fixture('alertmanager-firing.json') }, 401, 'invalid_api_key'],
        [{ token: project.apiKey, rawBody: '{"alerts": [', headers: { 'content-type': 'application/json' } }, 400, 'bad_request'],
        [{ token: project.apiKey, body: [] }, 400, 'validation_error'],
        [{ token: project.apiKey, body: { alerts: [{ status: 'pending' }] } }, 400, 'validation_error'],
        [{ token: project.apiKey, body: { alerts: [{ status: 'firing', labels: { a: 1 } }] } }, 400, 'validation_error'],
        [{ token: project.apiKey, body: { alerts: Array.from({ length: 101 }, () => alert) } }, 400, 'validation_error'],
        [{ token: project.apiKey, rawBody: 'alerts', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
      ];
      for (const [init, status, code] of cases) {
        const res = await gw.expectProducedNothing(() => post('alertmanager', init));
        expect([res.status, res.body?.error?.code], JSON.stringify(init).slice(0, 120)).toEqual([status, code]);
        expect(res.body.error.message).toEqual(expect.any(String));
      }
      const oversized = await post('alertmanager', { token: project.apiKey, body: { alerts: Array.from({ length: 101 }, () => alert) } });
      expect(oversized.body.error.details).toEqual({ alerts: ['is too long (maximum is 100 items)'] });
    });

    it('answers 202 ignored for a payload with no alerts, counting nothing', async () => {
      const res = await gw.expectProducedNothing(() => post('alertmanager', { token: project.apiKey, body: { version: '4', status: 'firing', alerts: [] } }));
      expect(res.status).toBe(202);
      expect(res.body.status).toBe('ignored');
    });

    it('replays an Idempotency-Key retry without producing again', async () => {
      const first = await post('alertmanager', {
        token: project.apiKey,
        body: fixture('alertmanager-resolved.json'),
        headers: { 'idempotency-key': `am-${project.projectKey}` },
      });
      expect(first.status).toBe(202);
      const again = await gw.expectProducedNothing(() =>
        post('alertmanager', {
          token: project.apiKey,
          body: fixture('alertmanager-resolved.json'),
          headers: { 'idempotency-key': `am-${project.projectKey}` },
        }),
      );
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    });
  });

  describe('POST /api/v1/integrations/pagerduty/v2/enqueue', () => {
    const withKey = (name: string, key: string) => ({ ...fixture(name), routing_key: key });

    it("takes PagerDuty's documented trigger, acknowledge and resolve with the API key as routing_key: 202 in PagerDuty's shape", async () => {
      const p = await gw.provision();
      const answers = [];
      for (const name of ['pagerduty-trigger.json', 'pagerduty-acknowledge.json', 'pagerduty-resolve.json']) {
        const res = await post('pagerduty/v2/enqueue', { body: withKey(name, p.apiKey) });
        answers.push([res.status, res.body]);
      }
      expect(answers).toEqual(Array.from({ length: 3 }, () => [202, { status: 'success', message: 'Event processed', dedup_key: 'samplekeyhere' }]));
      const events = await onTopic(p.projectKey);
      expect(events.map((e) => [e.name, e.correlation_id, e.severity, e.attributes.status])).toEqual([
        ['alert', 'samplekeyhere', 'info', 'triggered'],
        ['alert', 'samplekeyhere', undefined, 'acknowledged'],
        ['alert', 'samplekeyhere', undefined, 'resolved'],
      ]);
      expect(events[0]!.attributes).toMatchObject({ 'ping time': '1500ms', 'load avg': 0.75, summary: 'Example alert on host1.example.com' });
      expect(JSON.stringify(events)).not.toContain(p.apiKey);
    });

    it("takes Alertmanager's pagerduty_configs trigger and resolve", async () => {
      const p = await gw.provision();
      for (const name of ['pagerduty-alertmanager-trigger.json', 'pagerduty-alertmanager-resolve.json']) {
        const res = await post('pagerduty/v2/enqueue', { body: withKey(name, p.apiKey) });
        expect(res.status).toBe(202);
        expect(res.body.dedup_key).toBe('3b9bc2a0e4c0d7f7a4e2b6b0e7f2b8c5a2f94b7e2c1d0e9f8a7b6c5d4e3f2a1b');
      }
      const events = await onTopic(p.projectKey);
      expect(events.map((e) => [e.source, e.attributes.resolved])).toEqual([
        ['Alertmanager', false],
        ['Alertmanager', true],
      ]);
    });

    it('makes up a dedup_key for a trigger without one and returns it', async () => {
      const res = await post('pagerduty/v2/enqueue', {
        body: { routing_key: project.apiKey, event_action: 'trigger', payload: { summary: 'disk', source: 'db-1', severity: 'warning' } },
      });
      expect(res.status).toBe(202);
      expect(res.body.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    });

    it('refuses bad input in the envelope shape and produces nothing', async () => {
      const cases: [unknown, number, string][] = [
        [fixture('pagerduty-trigger.json'), 401, 'invalid_api_key'],
        [{ ...fixture('pagerduty-trigger.json'), routing_key: undefined }, 401, 'authentication_required'],
        [withKey('pagerduty-trigger.json', project.userToken), 403, 'api_key_required'],
        [{ routing_key: project.apiKey, event_action: 'page' }, 400, 'validation_error'],
        [{ routing_key: project.apiKey, event_action: 'resolve' }, 400, 'validation_error'],
        [{ routing_key: project.apiKey, event_action: 'trigger', payload: { summary: 's', source: 'h', severity: 'urgent' } }, 400, 'validation_error'],
        ['trigger', 401, 'authentication_required'],
      ];
      for (const [body, status, code] of cases) {
        const res = await gw.expectProducedNothing(() => post('pagerduty/v2/enqueue', { body }));
        expect([res.status, res.body?.error?.code], JSON.stringify(body).slice(0, 120)).toEqual([status, code]);
      }
      const missing = await post('pagerduty/v2/enqueue', { body: { routing_key: project.apiKey, event_action: 'resolve' } });
      expect(missing.body.error.details).toEqual({ dedup_key: ["can't be blank"] });
    });
  });

  describe('POST /api/v1/integrations/cloudevents, sent with the cloudevents SDK', () => {
    // The SDK encodes (its HTTP binding); this transport sends with the project's key and keeps the status.
    const sent: { status: number; body: any }[] = [];
    const transport = async (message: Message, options: Record<string, unknown> = {}) => {
      const headers = { ...(message.headers as Record<string, string>), ...((options.headers as Record<string, string>) ?? {}) };
      const res = await fetch(`${gw.url}/api/v1/integrations/cloudevents`, { method: 'POST', headers, body: message.body as string });
      const reply = { status: res.status, body: await res.json() };
      sent.push(reply);
      return reply;
    };

    it('takes structured and binary mode events, mapping type, source, time, id and extensions', async () => {
      const p = await gw.provision();
      const keyed = { headers: { authorization: `Bearer ${p.apiKey}` } };
      const time = new Date().toISOString();
      const structured = new CloudEvent({
        type: 'com.example.build.finished',
        source: '/ci/builds',
        subject: 'build-7',
        time,
        pbtype: 'deployment',
        correlationid: 'build-7',
        data: { duration_seconds: 42 },
      });
      const binary = new CloudEvent({ type: 'com.example.cpu', source: 'urn:host:web-1', pbtype: 'metric', pbseverity: 'warn', data: { value: 91.5 } });
      const a = (await emitterFor(transport, { mode: Mode.STRUCTURED })(structured, keyed)) as { status: number; body: any };
      const b = (await emitterFor(transport, { mode: Mode.BINARY })(binary, keyed)) as { status: number; body: any };
      expect([a.status, a.body.count, b.status, b.body.count]).toEqual([202, 1, 202, 1]);
      const events = await onTopic(p.projectKey);
      expect(events[0]).toMatchObject({
        type: 'deployment',
        name: 'com.example.build.finished',
        source: '/ci/builds',
        correlation_id: 'build-7',
        timestamp: time,
        attributes: { duration_seconds: 42, cloudevents: { id: structured.id, subject: 'build-7', specversion: '1.0' } },
      });
      expect(events[1]).toMatchObject({
        type: 'metric',
        name: 'com.example.cpu',
        severity: 'warn',
        source: 'urn:host:web-1',
        attributes: { value: 91.5, cloudevents: { id: binary.id } },
      });
    });

    it("takes a batch (application/cloudevents-batch+json) as one all-or-nothing request, and works with the SDK's own httpTransport", async () => {
      const p = await gw.provision();
      const events = [1, 2, 3].map((n) => new CloudEvent({ type: 'com.example.tick', source: '/ticker', data: { n } }));
      const res = await request(`${gw.url}/api/v1/integrations/cloudevents`, {
        token: p.apiKey,
        rawBody: JSON.stringify(events.map((e) => e.toJSON())),
        headers: { 'content-type': 'application/cloudevents-batch+json' },
      });
      expect(res.status).toBe(202);
      expect(res.body.count).toBe(3);
      const bad = await gw.expectProducedNothing(() =>
        request(`${gw.url}/api/v1/integrations/cloudevents`, {
          token: p.apiKey,
          rawBody: JSON.stringify([events[0]!.toJSON(), { specversion: '1.0', id: 'x', source: 's' }]),
          headers: { 'content-type': 'application/cloudevents-batch+json' },
        }),
      );
      expect(bad.status).toBe(400);
      const viaSdk = await emitterFor(httpTransport(`${gw.url}/api/v1/integrations/cloudevents`), { mode: Mode.STRUCTURED })(
        new CloudEvent({ type: 'com.example.sdk', source: '/sdk' }),
        { headers: { authorization: `Bearer ${p.apiKey}` } },
      );
      expect(JSON.parse((viaSdk as { body: string }).body)).toMatchObject({ status: 'accepted', count: 1 });
      expect((await onTopic(p.projectKey)).map((e) => e.attributes.n ?? e.name)).toEqual([1, 2, 3, 'com.example.sdk']);
    });

    it('refuses bad input in the envelope shape and produces nothing', async () => {
      const url = `${gw.url}/api/v1/integrations/cloudevents`;
      const good = new CloudEvent({ type: 't', source: 's' }).toJSON();
      const cases: [Parameters<typeof request>[1], number, string][] = [
        [{ rawBody: JSON.stringify(good), headers: { 'content-type': 'application/cloudevents+json' } }, 401, 'authentication_required'],
        [{ token: project.apiKey, body: { a: 1 } }, 400, 'validation_error'],
        [
          { token: project.apiKey, rawBody: JSON.stringify({ ...good, specversion: '0.3' }), headers: { 'content-type': 'application/cloudevents+json' } },
          400,
          'validation_error',
        ],
        [
          { token: project.apiKey, rawBody: JSON.stringify({ ...good, pbtype: 'billing' }), headers: { 'content-type': 'application/cloudevents+json' } },
          400,
          'validation_error',
        ],
        [{ token: project.apiKey, rawBody: '{"specversion":', headers: { 'content-type': 'application/cloudevents+json' } }, 400, 'bad_request'],
        [
          {
            token: project.apiKey,
            rawBody: 'hello',
            headers: { 'content-type': 'text/plain', 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': 's', 'ce-type': 't' },
          },
          415,
          'unsupported_media_type',
        ],
        [
          {
            token: project.apiKey,
            body: { v: 1 },
            headers: { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': 's', 'ce-type': 't', 'ce-pbchannel': 'a%00b' },
          },
          400,
          'validation_error',
        ],
      ];
      for (const [init, status, code] of cases) {
        const res = await gw.expectProducedNothing(() => request(url, init));
        expect([res.status, res.body?.error?.code], JSON.stringify(init).slice(0, 160)).toEqual([status, code]);
      }
      expect(sent.every((s) => s.status < 500)).toBe(true);
    });
  });
});
