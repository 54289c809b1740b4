import { createRequire } from 'node:module';
import { Webhooks } from '@octokit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, unseal } from '@pulseboard/contracts';
import { readTopic, request } from '@pulseboard/test-kit';
import { rotateIntegrationSecrets } from '../../secrets/rotate-integrations.ts';
import { ingestTestGateway, type IngestTestGateway, type Project } from '../../../test/ingest-test-kit.ts';

// GitHub's example payloads as @octokit/webhooks-examples publishes them.
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: Record<string, unknown>[] }[];
const example = (name: string, i = 0) => structuredClone(examples.find((e) => e.name === name)!.examples[i]!);

describe('POST /api/v1/integrations/github (X-Hub-Signature-256 under a per-project secret)', () => {
  let gw: IngestTestGateway;
  beforeAll(async () => {
    gw = await ingestTestGateway();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const setSecret = (project: Project, body: unknown, token = project.userToken) =>
    request(`${gw.url}/api/v1/projects/${project.projectKey}/integrations/github`, { method: 'PUT', token, body });

  /** A delivery as GitHub makes it: the body's exact text, signed by @octokit/webhooks with the secret. */
  async function deliver(projectKey: string, event: string, payload: unknown, secret: string, options: { delivery?: string; signature?: string } = {}) {
    const body = JSON.stringify(payload);
    const signature = options.signature ?? (await new Webhooks({ secret }).sign(body));
    return request(`${gw.url}/api/v1/integrations/github?project_key=${encodeURIComponent(projectKey)}`, {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/test',
        'x-github-event': event,
        'x-github-delivery': options.delivery ?? crypto.randomUUID(),
        'x-hub-signature-256': signature,
      },
    });
  }

  const onTopic = async (projectKey: string) =>
    (await readTopic(gw.topic))
      .filter((m) => m.key === projectKey)
      .map((m) => JSON.parse(m.value!) as { name: string; type: string; source: string; correlation_id: string; attributes: Record<string, unknown> });

  it('sets the secret with a user token (shown once, stored sealed, listed masked); a project key may not', async () => {
    const p = await gw.provision();
    expect((await setSecret(p, {}, p.apiKey)).body.error.code).toBe('user_token_required');
    const made = await setSecret(p, {});
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ integration: 'github', secret: expect.stringMatching(/^[0-9a-f]{64}$/), secret_shown_once: true });
    const given = await setSecret(p, { secret: 'my-github-secret-0123' });
    expect(given.body.data.secret).toBe('••••');
    const list = await request(`${gw.url}/api/v1/projects/${p.projectKey}/integrations`, { token: p.userToken });
    expect(list.body).toEqual({ data: [{ integration: 'github', secret: '••••', created_at: expect.any(String), updated_at: expect.any(String) }] });
    const { rows } = await gw.deps.pool.query<{ secret_sealed: string }>('SELECT secret_sealed FROM project_integration_secrets WHERE project_key = $1', [
      p.projectKey,
    ]);
    expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.secret_sealed).not.toContain('my-github-secret');
    expect((await setSecret(p, { secret: 'short' })).status).toBe(400);
    const other = await gw.provision();
    expect((await setSecret(other, {}, p.userToken)).status).toBe(404);
  });

  it('maps a signed deployment_status delivery to a deployment event; the signature agrees with @octokit/webhooks.verify', async () => {
    const p = await gw.provision();
    const secret = 'deploy-hook-secret-0123456789';
    await setSecret(p, { secret });
    const payload = example('deployment_status', 0);
    const status = payload.deployment_status as Record<string, unknown>;
    status.state = 'failure';
    status.updated_at = new Date().toISOString();
    const res = await deliver(p.projectKey, 'deployment_status', payload, secret);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'accepted', count: 1 });
    const [event] = await onTopic(p.projectKey);
    expect(event).toMatchObject({
      type: 'deployment',
      name: 'deploy_failed',
      source: 'github',
      attributes: {
        environment: 'production',
        commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        deployed_by: expect.any(String),
        github_event: 'deployment_status',
      },
    });
    // The verifier of @octokit/webhooks says the same of what was sent and of a forgery.
    const body = JSON.stringify(payload);
    const webhooks = new Webhooks({ secret });
    expect(await webhooks.verify(body, await webhooks.sign(body))).toBe(true);
    const forged = await new Webhooks({ secret: 'not-the-secret-000000' }).sign(body);
    expect(await webhooks.verify(body, forged)).toBe(false);
    expect((await gw.expectProducedNothing(() => deliver(p.projectKey, 'deployment_status', payload, secret, { signature: forged }))).status).toBe(401);
  });

  it('maps every workflow_run example GitHub publishes: requested starts, completed finishes', async () => {
    const p = await gw.provision();
    const secret = 'workflow-hook-secret-012345';
    await setSecret(p, { secret });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await deliver(p.projectKey, 'workflow_run', example('workflow_run', i), secret)).body.status);
    expect(answers).toEqual(['ignored', 'accepted', 'accepted', 'accepted', 'accepted']);
    expect((await onTopic(p.projectKey)).map((e) => e.name)).toEqual(['deploy_finished', 'deploy_finished', 'deploy_started', 'deploy_started']);
  });

  it('answers ping, ignores other events with 202, and refuses bad deliveries with 401/400, never a 5xx', async () => {
    const p = await gw.provision();
    const secret = 'ping-hook-secret-0123456789';
    const ping = example('ping');
    // No secret set yet: refused like a wrong signature.
    expect((await deliver(p.projectKey, 'ping', ping, secret)).body.error.code).toBe('invalid_signature');
    await setSecret(p, { secret });
    const pong = await deliver(p.projectKey, 'ping', ping, secret);
    expect([pong.status, pong.body.status]).toEqual([200, 'ok']);
    const push = await gw.expectProducedNothing(() => deliver(p.projectKey, 'push', example('push'), secret));
    expect([push.status, push.body.status]).toEqual([202, 'ignored']);
    const cases: [() => ReturnType<typeof deliver>, number, string][] = [
      [() => deliver(p.projectKey, 'ping', ping, 'wrong-secret-000000000'), 401, 'invalid_signature'],
      [() => deliver('no-such-project', 'ping', ping, secret), 401, 'invalid_signature'],
      [() => deliver(p.projectKey, 'ping', ping, secret, { signature: 'sha1=abc' }), 401, 'invalid_signature'],
      [() => deliver(p.projectKey, 'deployment_status', { action: 'created' }, secret), 400, 'validation_error'],
      [() => deliver(p.projectKey, 'deployment_status', [1], secret), 400, 'validation_error'],
      [
        () =>
          request(`${gw.url}/api/v1/integrations/github?project_key=${p.projectKey}`, {
            rawBody: '{"zen":',
            headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-hub-signature-256': 'sha256=00' },
          }),
        400,
        'bad_request',
      ],
      [
        () =>
          request(`${gw.url}/api/v1/integrations/github?project_key=${p.projectKey}`, {
            rawBody: 'payload=%7B%7D',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'ping' },
          }),
        415,
        'unsupported_media_type',
      ],
      [() => request(`${gw.url}/api/v1/integrations/github`, { body: {}, headers: { 'x-github-event': 'ping' } }), 401, 'invalid_signature'],
    ];
    for (const [send, status, code] of cases) {
      const res = await gw.expectProducedNothing(send);
      expect([res.status, res.body?.error?.code]).toEqual([status, code]);
    }
  });

  it('uses a changed secret from the next delivery, and answers a redelivery (same X-GitHub-Delivery) without storing it twice', async () => {
    const p = await gw.provision();
    await setSecret(p, { secret: 'first-secret-0123456789' });
    const payload = example('deployment_status', 1);
    (payload.deployment_status as Record<string, unknown>).updated_at = new Date().toISOString();
    const first = await deliver(p.projectKey, 'deployment_status', payload, 'first-secret-0123456789', { delivery: `d-${p.projectKey}` });
    expect(first.status).toBe(202);
    const again = await gw.expectProducedNothing(() =>
      deliver(p.projectKey, 'deployment_status', payload, 'first-secret-0123456789', { delivery: `d-${p.projectKey}` }),
    );
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(again.body).toEqual(first.body);
    await setSecret(p, { secret: 'second-secret-0123456789' });
    expect((await deliver(p.projectKey, 'ping', example('ping'), 'first-secret-0123456789')).status).toBe(401);
    expect((await deliver(p.projectKey, 'ping', example('ping'), 'second-secret-0123456789')).status).toBe(200);
    const removed = await request(`${gw.url}/api/v1/projects/${p.projectKey}/integrations/github`, { method: 'DELETE', token: p.userToken });
    expect(removed.status).toBe(204);
    expect((await deliver(p.projectKey, 'ping', example('ping'), 'second-secret-0123456789')).status).toBe(401);
    expect((await onTopic(p.projectKey)).length).toBe(1);
  });

  it('re-seals a secret sealed under the previous SECRETS_KEY (secrets:rotate), and deliveries keep verifying', async () => {
    const p = await gw.provision();
    const secret = 'rotated-hook-secret-0123456';
    await setSecret(p, { secret });
    const previous = 'the-previous-secrets-key-0123456789abcdef';
    await gw.deps.pool.query('UPDATE project_integration_secrets SET secret_sealed = $2 WHERE project_key = $1', [p.projectKey, seal(secret, previous)]);
    const report = await rotateIntegrationSecrets(gw.deps.pool, { current: gw.env.SECRETS_KEY!, previous });
    expect(report.unreadable).toEqual([]);
    expect(report.resealed).toBeGreaterThanOrEqual(1);
    const { rows } = await gw.deps.pool.query<{ secret_sealed: string }>('SELECT secret_sealed FROM project_integration_secrets WHERE project_key = $1', [
      p.projectKey,
    ]);
    expect(unseal(rows[0]!.secret_sealed, gw.env.SECRETS_KEY!)).toBe(secret);
    expect((await deliver(p.projectKey, 'ping', example('ping'), secret)).status).toBe(200);
  });
});
