import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { once } from 'node:events';
import { createServer as createTcpServer, type Server as NetServer } from 'node:net';
import { COULD_NOT_CONNECT, seal, TARGET_REFUSED_REASON } from '@pulseboard/contracts';
import { envelope, freePort, readTopic, request, TEST_DATABASE_URL, TEST_SECRETS_KEY, testKafka, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { httpReceiver, smtpReceiver, type Reply } from './receivers.ts';

type Pipeline = Awaited<ReturnType<typeof startPipeline>>;
type Project = Awaited<ReturnType<Pipeline['provision']>>;

describe('notifications: API, deliveries over webhook, Slack and email, retries, SSRF (CONTRACT Notifications)', () => {
  let pipeline: Pipeline;
  let notification: ServiceProcess;
  let receiver: Awaited<ReturnType<typeof httpReceiver>>;
  let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
  // Per path: how the receiver answers the n-th request.
  const answers = new Map<string, (n: number) => Reply | Promise<Reply>>();
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });

  // Short timeout and lease so the slow-target and crash-window cases take seconds (the lease outlives a send).
  const notificationEnv = (retryForMs: string) => ({ SMTP_URL: smtp.url, NOTIFY_RETRY_FOR_MS: retryForMs, NOTIFY_TIMEOUT_MS: '1500', NOTIFY_LEASE_MS: '3000' });

  // Loopback ports the pipeline allows besides the receiver's (NOTIFY_ALLOW_TARGETS): one nothing listens on,
  // one that accepts a connection and closes it (as Postgres or Kafka would to an HTTP request).
  let closed: number;
  let closing: NetServer;

  beforeAll(async () => {
    receiver = await httpReceiver((r, n) => answers.get(r.path)?.(n) ?? { status: 200 });
    smtp = await smtpReceiver();
    closed = await closedPort();
    closing = createTcpServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await once(closing, 'listening');
    const allowed = [receiver.target, `127.0.0.1:${closed}`, `127.0.0.1:${(closing.address() as { port: number }).port}`];
    pipeline = await startPipeline({ NOTIFY_SEND_TIMEOUT_MS: '5000', NOTIFY_ALLOW_TARGETS: allowed.join(',') });
    await pipeline.startRuleEngine();
    notification = await pipeline.startNotification(notificationEnv('3000'));
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
    await receiver?.close();
    await smtp?.close();
    closing?.close();
    await db.end();
  });

  const api = (project: Project, path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    request(`${pipeline.url}/api/v1${path}`, { token: init.token ?? project.userToken, ...init });
  const createService = async (project: Project, type: string, config: unknown) => {
    const res = await api(project, '/notifications', { body: { name: `${type} target`, type, config } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: number; config: Record<string, unknown> };
  };
  // A port nothing listens on: free a moment ago (a race with another process taking it is harmless: it would answer, and the test fail loudly).
  function closedPort() {
    return freePort();
  }
  const deliveries = async (project: Project, id: number) =>
    (await api(project, `/notifications/${id}/deliveries`)).body.data as {
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
      tile_id: number | null;
    }[];
  const ingest = async (project: Project, event: Record<string, unknown>) => {
    const res = await request(`${pipeline.url}/ingest`, {
      token: project.apiKey,
      body: envelope(project.projectKey, { timestamp: new Date().toISOString(), ...event }),
    });
    expect(res.status).toBe(201);
  };

  it('manages services with a user token only; secrets masked; config validated per type; other accounts get 404', async () => {
    const project = await pipeline.provision();
    const other = await pipeline.provision();
    const refused = await api(project, '/notifications', { token: project.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('user_token_required');
    const bad = await api(project, '/notifications', { body: { name: 'x', type: 'webhook', config: { url: 'ftp://nope' } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.details)).toEqual(['config.url']);
    expect((await api(project, '/notifications', { body: { name: 'x', type: 'email', config: { to: ['not an address'] } } })).status).toBe(400);

    const created = await api(project, '/notifications', { body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/api` } } });
    expect(created.status).toBe(201);
    const secret = created.body.data.config.secret as string;
    expect(secret).toMatch(/^whsec_/); // shown once, in the 201
    const listed = (await api(project, '/notifications')).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].config.secret).not.toBe(secret);
    expect(listed[0].config.secret).toContain('••••');
    // The URL is a secret too (it often carries a token): sealed, and shown down to scheme, host and port.
    expect(created.body.data.config.url).toBe(`${receiver.url}/••••`);
    expect(listed[0]).toMatchObject({ id: created.body.data.id, name: 'hook', type: 'webhook', config: { url: `${receiver.url}/••••` } });
    const stored = (await db.query('SELECT config::text, secrets FROM notification_services WHERE id = $1', [created.body.data.id])).rows[0];
    expect(`${stored.config}${stored.secrets}`).not.toContain(secret.slice(6));
    expect(`${stored.config}${stored.secrets}`).not.toContain('/api');

    const id = created.body.data.id;
    for (const [method, path] of [
      ['GET', `/notifications/${id}/deliveries`],
      ['PUT', `/notifications/${id}`],
      ['POST', `/notifications/${id}/send`],
      ['DELETE', `/notifications/${id}`],
    ] as const) {
      const res = await api(other, path, { method, ...(method === 'PUT' ? { body: { name: 'mine now' } } : method === 'POST' ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // A tile may name only its own account's services.
    const tile = await api(other, '/tiles', {
      token: other.apiKey,
      body: { name: 't', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'up' } }, notification_service_ids: [id] },
    });
    expect(tile.status).toBe(400);
    expect(Object.keys(tile.body.error.details)).toEqual(['notification_service_ids']);
  });

  it('a tile transition notifies each named service once, signed per Standard Webhooks; a value-only change not at all', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const hook = await createService(project, 'webhook', { url: `${receiver.url}/transitions-${project.projectKey}` });
    const secret = hook.config.secret as string;
    const slack = await createService(project, 'slack', { webhook_url: `${receiver.url}/slack-${project.projectKey}` });
    const tile = await api(project, '/tiles', {
      token: project.apiKey,
      body: {
        name: 'CPU',
        kind: 'metric',
        rule: { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
        notification_service_ids: [hook.id, slack.id],
      },
    });
    expect(tile.status).toBe(201);
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 10 } }); // unknown → ok
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 20 } }); // value only
    await ingest(project, { type: 'metric', name: 'cpu', attributes: { value: 99 } }); // ok → critical
    const hooks = () => receiver.received.filter((r) => r.path === `/transitions-${project.projectKey}`);
    await waitFor(() => hooks().length === 2 && receiver.received.filter((r) => r.path === `/slack-${project.projectKey}`).length === 2, {
      timeoutMs: 15000,
      what: 'two transitions at each receiver',
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(hooks()).toHaveLength(2);

    const verifier = new Webhook(secret);
    const bodies = hooks().map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
    expect(bodies.map((b) => [b.type, b.data.previous_status, b.data.status, b.data.value])).toEqual([
      ['tile.status_changed', 'unknown', 'ok', 10],
      ['tile.status_changed', 'ok', 'critical', 99],
    ]);
    expect(hooks()[0]!.headers['webhook-id']).toMatch(/^dlv_/);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(hooks()[0]!.body, hooks()[0]!.headers as Record<string, string>),
    ).toThrow();

    const slackBody = JSON.parse(receiver.received.filter((r) => r.path === `/slack-${project.projectKey}`)[1]!.body);
    expect(slackBody.text).toContain('CPU: ok → critical');
    expect(JSON.stringify(slackBody.blocks)).toContain('*Value*\\n99');
    const log = await deliveries(project, hook.id);
    expect(log.map((d) => [d.status, d.attempts, d.tile_id])).toEqual([
      ['delivered', 1, tile.body.data.id],
      ['delivered', 1, tile.body.data.id],
    ]);
  });

  it('attaching a service to a tile is in force for the very next change; detaching it stops deliveries (attached services cached by revision)', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000, hourlyLimit: 10_000 });
    const hook = await createService(project, 'webhook', { url: `${receiver.url}/attach-${project.projectKey}` });
    const rule = (name: string) => ({ filter: { type: 'metric', name }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } });
    const x = (await api(project, '/tiles', { token: project.apiKey, body: { name: 'X', kind: 'metric', rule: rule('x') } })).body.data.id as number;
    const y = (
      await api(project, '/tiles', { token: project.apiKey, body: { name: 'Y', kind: 'metric', rule: rule('y'), notification_service_ids: [hook.id] } })
    ).body.data.id as number;
    const sent = async () => (await deliveries(project, hook.id)).map((d) => d.tile_id);
    // Targets are looked up when a change is handled: Y (attached) marks how far the service got, since
    // the changes of one project are handled in order (one partition).
    const handledUpTo = async (yDeliveries: number) =>
      waitFor(async () => (await sent()).filter((t) => t === y).length === yDeliveries, { timeoutMs: 15000, what: `${yDeliveries} deliveries of Y` });
    await ingest(project, { type: 'metric', name: 'x', attributes: { value: 10 } }); // unknown → ok: X notifies nobody yet
    await ingest(project, { type: 'metric', name: 'y', attributes: { value: 10 } });
    await handledUpTo(1);
    expect(await sent()).toEqual([y]);

    // The event goes in the request right after the attachment answered: no wait between them.
    expect((await api(project, `/tiles/${x}`, { method: 'PUT', body: { notification_service_ids: [hook.id] } })).status).toBe(200);
    await ingest(project, { type: 'metric', name: 'x', attributes: { value: 99 } }); // ok → critical
    await waitFor(async () => (await sent()).includes(x), { timeoutMs: 15000, what: "X's transition delivered after the attachment" });

    expect((await api(project, `/tiles/${x}`, { method: 'PUT', body: { notification_service_ids: [] } })).status).toBe(200);
    await ingest(project, { type: 'metric', name: 'x', attributes: { value: 10 } }); // critical → ok: nobody to notify now
    await ingest(project, { type: 'metric', name: 'y', attributes: { value: 99 } });
    await handledUpTo(2);
    expect((await sent()).filter((t) => t === x)).toHaveLength(1);
  });

  it('send_message and send answer with the outcome: webhook, Slack and email (SMTP) payloads', async () => {
    const project = await pipeline.provision();
    const slack = await createService(project, 'slack', { webhook_url: `${receiver.url}/msg-slack-${project.projectKey}` });
    const sent = await api(project, `/notifications/${slack.id}/send_message`, { body: { subject: 'Deploy', body: 'v2 is out' } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });
    expect(sent.body.data.delivery_id).toMatch(/^msg_/);
    expect(JSON.parse(receiver.received.find((r) => r.path === `/msg-slack-${project.projectKey}`)!.body)).toMatchObject({ text: 'Deploy: v2 is out' });

    const mail = await createService(project, 'email', { to: ['ops@example.test', 'dev@example.test'] });
    const test = await api(project, `/notifications/${mail.id}/send`, { body: {} });
    expect(test.body.data).toMatchObject({ status: 'delivered', attempts: 1 });
    const received = smtp.mails.at(-1)!;
    expect(received.to).toEqual(['ops@example.test', 'dev@example.test']);
    expect(received.raw).toContain('Subject: Pulseboard test notification');
    expect(received.raw).toContain('Content-Type: text/plain');
    expect(received.raw).toContain('Content-Type: text/html');

    // User strings are escaped for each format: no link or mention in Slack, no markup in the email's HTML.
    const hostile = { subject: '<!channel> deploy', body: 'see <https://phish.example|click> & go' };
    expect((await api(project, `/notifications/${slack.id}/send_message`, { body: hostile })).body.data).toMatchObject({ status: 'delivered' });
    const slackText = JSON.parse(receiver.received.filter((r) => r.path === `/msg-slack-${project.projectKey}`).at(-1)!.body) as { text: string };
    expect(slackText.text).toBe('&lt;!channel&gt; deploy: see &lt;https://phish.example|click&gt; &amp; go');
    expect(
      (await api(project, `/notifications/${mail.id}/send_message`, { body: { subject: 'markup', body: '<img src=x onerror=alert(1)>' } })).body.data,
    ).toMatchObject({ status: 'delivered' });
    const html = smtp.mails.at(-1)!.raw.split('Content-Type: text/html')[1]!;
    expect(html).not.toContain('<img');
    expect(html).toMatch(/&#60;img|&amp;#60;img|&#x3C;img|=26#60;img/i);
  });

  it('retries 500s until delivered, honours 429 Retry-After, fails 4xx at once, dead-letters after the last try', async () => {
    const project = await pipeline.provision();
    const path = (name: string) => `/${name}-${project.projectKey}`;
    answers.set(path('flaky'), (n) => ({ status: n <= 2 ? 500 : 200 }));
    answers.set(path('busy'), (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    answers.set(path('gone'), () => ({ status: 410 }));
    answers.set(path('down'), () => ({ status: 503 }));
    const ids: Record<string, number> = {};
    for (const name of ['flaky', 'busy', 'gone', 'down']) ids[name] = (await createService(project, 'webhook', { url: `${receiver.url}${path(name)}` })).id;
    const first: Record<string, any> = {};
    for (const name of Object.keys(ids))
      first[name] = (await api(project, `/notifications/${ids[name]}/send_message`, { body: { subject: name, body: name } })).body.data;
    expect(first.flaky).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
    expect(first.gone).toMatchObject({ status: 'failed', attempts: 1, response_status: 410 });

    const final = async (name: string) => (await deliveries(project, ids[name]!))[0]!;
    await waitFor(async () => (await final('flaky')).status === 'delivered', { timeoutMs: 10000, what: 'flaky delivered' });
    expect((await final('flaky')).attempts).toBe(3);
    await waitFor(async () => (await final('busy')).status === 'delivered', { timeoutMs: 10000, what: 'busy delivered' });
    const busy = receiver.received.filter((r) => r.path === path('busy'));
    expect(busy[1]!.at - busy[0]!.at).toBeGreaterThanOrEqual(950);
    expect(receiver.received.filter((r) => r.path === path('gone'))).toHaveLength(1);

    await waitFor(async () => (await final('down')).status === 'failed', { timeoutMs: 15000, what: 'down given up after NOTIFY_RETRY_FOR_MS' });
    const down = await final('down');
    expect(down.attempts).toBeGreaterThan(2);
    expect(down.last_error).toBe('HTTP 503');
    const letters = (await readTopic(pipeline.env.TOPIC_NOTIFICATIONS_DLQ!)).map((m) => JSON.parse(m.value!));
    expect(letters.find((l) => l.delivery_id === down.id)).toMatchObject({ last_error: 'HTTP 503', attempts: down.attempts });
  });

  it('a dead letter the broker will not take keeps the delivery scheduled; it is marked failed only once the letter is written', async () => {
    const project = await pipeline.provision();
    const path = `/never-${project.projectKey}`;
    answers.set(path, () => ({ status: 503 }));
    const service = await createService(project, 'webhook', { url: `${receiver.url}${path}` });
    // A dead-letter topic the broker refuses every letter on (each is larger than the topic allows).
    const dlq = `${pipeline.env.TOPIC_NOTIFICATIONS_DLQ}.refusing`;
    const admin = testKafka().admin();
    await admin.connect();
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: dlq, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '100' }] }],
      });
      await notification.kill('SIGTERM');
      notification = await pipeline.startNotification({ ...notificationEnv('300'), TOPIC_NOTIFICATIONS_DLQ: dlq });

      const first = (await api(project, `/notifications/${service.id}/send_message`, { body: { subject: 'never', body: 'b' } })).body.data;
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      // Past its retry window and refused by the dead-letter topic: still pending, and tried again.
      await waitFor(() => notification.logs.some((l) => l.includes('"event":"dead_letter_failed"') && l.includes(first.delivery_id)), {
        timeoutMs: 30000,
        what: 'a refused dead letter',
      });
      await waitFor(async () => (await deliveries(project, service.id))[0]!.attempts >= 4, {
        timeoutMs: 30000,
        what: 'more tries after the refused dead letter',
      });
      expect((await deliveries(project, service.id))[0]).toMatchObject({ id: first.delivery_id, status: 'pending', last_error: 'HTTP 503' });
      expect(await readTopic(dlq)).toHaveLength(0);

      // The broker takes writes again: the next try that gives up writes the letter, then marks the delivery failed.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: 2 /* TOPIC */, name: dlq, configEntries: [{ name: 'max.message.bytes', value: '1048588' }] }],
      });
      await waitFor(async () => (await deliveries(project, service.id))[0]!.status === 'failed', {
        timeoutMs: 30000,
        what: 'the delivery failed once its dead letter is written',
      });
      const letters = (await readTopic(dlq)).map((m) => JSON.parse(m.value!));
      expect(letters.filter((l) => l.delivery_id === first.delivery_id)).toHaveLength(1);
      expect(letters[0]).toMatchObject({ delivery_id: first.delivery_id, last_error: 'HTTP 503' });
    } finally {
      await admin.disconnect();
      await notification.kill('SIGTERM');
      notification = await pipeline.startNotification(notificationEnv('3000'));
    }
  }, 120_000);

  it('the owner updates a service (a webhook keeps its secret unless given a new one) and deletes it', async () => {
    const project = await pipeline.provision();
    const hook = await createService(project, 'webhook', { url: `${receiver.url}/before-${project.projectKey}` });
    const secret = hook.config.secret as string;
    const renamed = await api(project, `/notifications/${hook.id}`, {
      method: 'PUT',
      body: { name: 'renamed', config: { url: `${receiver.url}/after-${project.projectKey}` } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: hook.id, name: 'renamed', type: 'webhook', config: { url: `${receiver.url}/••••` } });
    expect(renamed.body.data.config.secret).toContain('••••');
    // The subject here is the update: the send's own outcome may still be `pending` when a busy
    // machine needs longer than NOTIFY_SEND_TIMEOUT_MS (that answer is tested above), so wait for the record.
    expect((await api(project, `/notifications/${hook.id}/send`, { body: {} })).status).toBe(200);
    await waitFor(async () => (await deliveries(project, hook.id))[0]?.status === 'delivered', {
      timeoutMs: 30000,
      what: 'the test message delivered to the new URL',
    });
    const sent = receiver.received.find((r) => r.path === `/after-${project.projectKey}`)!;
    expect(() => new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).not.toThrow();

    const retyped = await api(project, `/notifications/${hook.id}`, { method: 'PUT', body: { type: 'slack' } });
    expect(retyped.status).toBe(400);
    expect(Object.keys(retyped.body.error.details)).toEqual(['config']);
    expect((await api(project, `/notifications/${hook.id}`, { method: 'PUT', body: {} })).status).toBe(400);
    expect((await api(project, `/notifications/${hook.id}`, { method: 'PUT', body: { config: { url: 'ftp://nope' } } })).status).toBe(400);

    const deleted = await api(project, `/notifications/${hook.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await api(project, '/notifications')).body.data).toEqual([]);
    expect((await api(project, `/notifications/${hook.id}/deliveries`)).status).toBe(404);
    expect((await api(project, `/notifications/${hook.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('a 408 and a target slower than the timeout are tried again, then delivered', async () => {
    const project = await pipeline.provision();
    const path = (name: string) => `/${name}-${project.projectKey}`;
    answers.set(path('timeout408'), (n) => ({ status: n === 1 ? 408 : 200 }));
    // The first answer comes after NOTIFY_TIMEOUT_MS (1.5 s): by then the sender has given up on it.
    answers.set(path('slow'), async (n) => {
      if (n === 1) await new Promise((r) => setTimeout(r, 2500));
      return { status: 200 };
    });
    const ids: Record<string, number> = {};
    for (const name of ['timeout408', 'slow']) ids[name] = (await createService(project, 'webhook', { url: `${receiver.url}${path(name)}` })).id;
    const first408 = (await api(project, `/notifications/${ids.timeout408}/send`, { body: {} })).body.data;
    expect(first408).toMatchObject({ status: 'pending', attempts: 1, response_status: 408 });
    const firstSlow = (await api(project, `/notifications/${ids.slow}/send`, { body: {} })).body.data;
    expect(firstSlow).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    const afterTimeout = (await deliveries(project, ids.slow!))[0]!;
    if (afterTimeout.status !== 'delivered') expect(afterTimeout.last_error).toBe('no answer within 1500 ms');
    for (const name of ['timeout408', 'slow']) {
      await waitFor(async () => (await deliveries(project, ids[name]!))[0]!.status === 'delivered', { timeoutMs: 15000, what: `${name} delivered` });
      expect((await deliveries(project, ids[name]!))[0]!.attempts, name).toBe(2);
    }
  });

  it('outbound guard: literal targets that are not global unicast are refused at creation, every IPv4-in-IPv6 form judged as its IPv4', async () => {
    const project = await pipeline.provision();
    for (const [type, field, url] of [
      ['webhook', 'url', 'http://169.254.169.254/latest/meta-data'],
      ['webhook', 'url', 'http://10.1.2.3/hook'],
      ['webhook', 'url', 'http://[fd00::1]/hook'],
      ['webhook', 'url', 'http://[::a9fe:a9fe]/'],
      ['webhook', 'url', 'http://[::ffff:10.1.2.3]/'],
      ['webhook', 'url', 'http://[64:ff9b::a00:1]/'],
      ['webhook', 'url', 'http://[2002:a00:1::]/'],
      ['webhook', 'url', 'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/'],
      ['webhook', 'url', 'http://[fe80::1]/'],
      ['slack', 'webhook_url', 'http://192.168.1.20/services/x'],
    ]) {
      const res = await api(project, '/notifications', { body: { name: 'internal', type, config: { [field!]: url } } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('validation_error');
      expect(Object.keys(res.body.error.details), url).toEqual([`config.${field}`]);
    }
  });

  it('a refused target (a service stored before creation checked it) and a failed connection record a generic reason: no address, no port', async () => {
    const project = await pipeline.provision();
    // As a release without the creation check stored it: sealed under the run's key, target a private literal.
    const stored = await db.query<{ id: string }>(
      `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'old', 'webhook', '{}', $2) RETURNING id`,
      [project.accountId, seal(JSON.stringify({ url: 'http://10.1.2.3:8443/hook', secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' }), TEST_SECRETS_KEY)],
    );
    const refused = await api(project, `/notifications/${stored.rows[0]!.id}/send`, { body: {} });
    expect(refused.body.data).toMatchObject({ status: 'failed', attempts: 1 });
    const refusedError = (await deliveries(project, Number(stored.rows[0]!.id)))[0]!.last_error!;
    expect(refusedError).toBe(TARGET_REFUSED_REASON);

    // A closed port and one that closes the connection (both allowed exact targets here): the tenant reads
    // the same words for both, neither which nor where.
    const closingPort = (closing.address() as { port: number }).port;
    const failures: string[] = [];
    for (const port of [closed, closingPort]) {
      const service = await createService(project, 'webhook', { url: `http://127.0.0.1:${port}/hook` });
      await api(project, `/notifications/${service.id}/send`, { body: {} });
      failures.push((await deliveries(project, service.id))[0]!.last_error!);
    }
    expect(failures).toEqual([COULD_NOT_CONNECT, COULD_NOT_CONNECT]);
    expect(failures.join()).not.toMatch(/refused|closed before an answer/i);
    expect(COULD_NOT_CONNECT).toContain('could not connect');
    for (const error of [refusedError, ...failures]) {
      expect(error).not.toMatch(/\d+\.\d+\.\d+|::|8443/);
      expect(error).not.toContain(String(closed));
      expect(error).not.toContain(String(closingPort));
    }
  });

  it('outbound stays outbound: loopback in every form and localhost are refused at creation but for the exact allowed targets; a user name or password in the URL is refused, and a stored one never becomes an Authorization header (issue 41)', async () => {
    const project = await pipeline.provision();
    const port = receiver.target.split(':')[1]!;
    for (const url of [
      `http://127.0.0.5:${port}/hook`,
      `http://127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}/hook`,
      'http://127.0.0.1/hook',
      `http://[::ffff:127.0.0.5]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      'http://2130706433/',
      `http://2130706434:${port}/`,
      'http://0177.0.0.1/',
      `http://0177.0.0.2:${port}/`,
      'http://0x7f.1/',
      `http://localhost:${port}/hook`,
      'http://localhost/hook',
      `http://sub.localhost:${port}/`,
    ]) {
      const res = await api(project, '/notifications', { body: { name: 'loopback', type: 'webhook', config: { url } } });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body.error.details), url).toEqual(['config.url']);
    }
    for (const url of [`https://user:pass@hooks.example.com/x`, `http://user:pass@${receiver.target}/creds`, 'https://token@hooks.example.com/x']) {
      const res = await api(project, '/notifications', { body: { name: 'creds', type: 'webhook', config: { url } } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details['config.url'], url).toEqual([
        'must not contain a user name or password (put a token in the path or query, or use the webhook secret)',
      ]);
    }
    // Stored before creation refused it: the delivery is refused, the receiver never asked, with or without credentials.
    const path = `/creds-${project.projectKey}`;
    const stored = await db.query<{ id: string }>(
      `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'old', 'webhook', '{}', $2) RETURNING id`,
      [
        project.accountId,
        seal(JSON.stringify({ url: `http://user:pass@${receiver.target}${path}`, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' }), TEST_SECRETS_KEY),
      ],
    );
    const sent = await api(project, `/notifications/${stored.rows[0]!.id}/send`, { body: {} });
    expect(sent.body.data, JSON.stringify(sent.body)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await deliveries(project, Number(stored.rows[0]!.id)))[0]!.last_error).toBe('the target URL holds a user name or password');
    expect(receiver.received.filter((r) => r.path === path)).toEqual([]);
    expect(receiver.received.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
  });

  it('kill -9 with deliveries pending: after the restart each is delivered once (or once more with the same webhook-id)', async () => {
    const project = await pipeline.provision();
    const path = `/crash-${project.projectKey}`;
    let failing = true;
    answers.set(path, () => ({ status: failing ? 500 : 200 }));
    const service = await createService(project, 'webhook', { url: `${receiver.url}${path}` });
    // Retries that neither give up nor back off far while the ten sends fail: how long the sends
    // take on a busy machine must not decide whether the deliveries are still due after the restart
    // (with a 3 s window, a slow run gave the first ones up before the kill).
    const crashEnv = { ...notificationEnv('60000'), NOTIFY_FIRST_RETRY_MS: '200', NOTIFY_MAX_BACKOFF_MS: '1000' };
    await notification.kill('SIGTERM');
    notification = await pipeline.startNotification(crashEnv);
    for (let i = 0; i < 10; i++) {
      const res = await api(project, `/notifications/${service.id}/send_message`, { body: { subject: `m${i}`, body: 'b' } });
      expect(res.body.data.status).toBe('pending');
    }
    await notification.kill('SIGKILL');
    failing = false;
    notification = await pipeline.startNotification(crashEnv);
    await waitFor(async () => (await deliveries(project, service.id)).every((d) => d.status === 'delivered'), { timeoutMs: 45000, what: 'all ten delivered' });
    const log = await deliveries(project, service.id);
    expect(log).toHaveLength(10);
    const accepted = receiver.received.filter((r) => r.path === path && r.status === 200).map((r) => r.headers['webhook-id']);
    for (const d of log) {
      const times = accepted.filter((id) => id === d.id).length;
      // Once; twice only if the kill fell between a send and its record (the same webhook-id both times).
      expect(times, d.id).toBeGreaterThanOrEqual(1);
      expect(times, d.id).toBeLessThanOrEqual(2);
    }
    expect(accepted.length).toBeLessThanOrEqual(11);
  }, 120_000);
  it('killed after a send but before its record: sent once more with the same webhook-id, and never again once delivered', async () => {
    const project = await pipeline.provision();
    const path = `/post-send-${project.projectKey}`;
    let arrived = false;
    let answerFirst!: () => void;
    const firstHeld = new Promise<void>((r) => (answerFirst = r));
    answers.set(path, async (n) => {
      if (n === 1) {
        arrived = true;
        await firstHeld; // the target got it; its 200 goes out only after the sender died
      }
      return { status: 200 };
    });
    const service = await createService(project, 'webhook', { url: `${receiver.url}${path}` });
    const sending = api(project, `/notifications/${service.id}/send_message`, { body: { subject: 'once', body: 'b' } });
    await waitFor(() => arrived, { timeoutMs: 10000, what: 'the first send to reach the target' });
    await notification.kill('SIGKILL');
    answerFirst();
    expect((await sending).body.data.status).toBe('pending');
    notification = await pipeline.startNotification(notificationEnv('60000'));
    await waitFor(async () => (await deliveries(project, service.id))[0]?.status === 'delivered', {
      timeoutMs: 30000,
      what: 'the delivery recorded after the restart',
    });
    const [delivery] = await deliveries(project, service.id);
    // A later message to the same target is delivered after it: nothing is left to send the first one a third time.
    expect((await api(project, `/notifications/${service.id}/send_message`, { body: { subject: 'later', body: 'b' } })).body.data.status).toBe('delivered');
    const got = receiver.received.filter((r) => r.path === path);
    expect(got).toHaveLength(3);
    expect(got.slice(0, 2).map((r) => r.headers['webhook-id'])).toEqual([delivery!.id, delivery!.id]);
    expect(got[2]!.headers['webhook-id']).not.toBe(delivery!.id);
  }, 120_000);
});
