import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, unseal } from '@pulseboard/contracts';
import { createPool, migrateAll, type Pool } from '@pulseboard/db';
import { createScratchDatabase, provisionProject, request, SOURCE_NODE_ARGS, spawnService, TEST_ADMIN_TOKEN, waitFor } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const key = () => randomBytes(32).toString('base64url');

/** `pnpm secrets:rotate` as an operator runs it: its exit code and output. */
function rotateCommand(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...SOURCE_NODE_ARGS, 'services/gateway/src/secrets/rotate-cli.ts'],
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), output: stdout + stderr }),
    );
  });
}

/**
 * SECRETS_KEY rotation on a database of this test's own (a rotation rewrites
 * every row, and the other tests' rows are sealed under the run's key).
 */
// Each test starts services and runs the command as processes: room for a busy machine.
describe('SECRETS_KEY rotation (real Postgres)', { timeout: 180_000 }, () => {
  const oldKey = key();
  const newKey = key();
  const hookUrl = 'https://hooks.example.com/in/abc?token=s3cr3t-query-token';
  const slackUrl = 'https://hooks.slack.com/services/T000/B000/XXXXSECRET';
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: Pool;
  let project: Awaited<ReturnType<typeof provisionProject>>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, root);
    pool = createPool({ connectionString: database.url, max: 2, applicationName: 'rotate-test' });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const list = async (url: string) => request(`${url}/api/v1/notifications`, { token: project.userToken });

  it('seals webhook URLs with the other secrets and shows them masked', async () => {
    const gateway = await startTestGateway({ DATABASE_URL: database.url, SECRETS_KEY: oldKey });
    try {
      project = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
      const webhook = await request(`${gateway.url}/api/v1/notifications`, {
        token: project.userToken,
        body: { name: 'hook', type: 'webhook', config: { url: hookUrl } },
      });
      expect(webhook.status).toBe(201);
      expect(webhook.body.data.config.url).toBe('https://hooks.example.com/••••');
      ids.webhook = webhook.body.data.id;
      const slack = await request(`${gateway.url}/api/v1/notifications`, {
        token: project.userToken,
        body: { name: 'slack', type: 'slack', config: { webhook_url: slackUrl } },
      });
      expect(slack.status).toBe(201);
      ids.slack = slack.body.data.id;
      const shown = (await list(gateway.url)).body.data as { config: Record<string, string> }[];
      expect(shown.map((s) => s.config.url ?? s.config.webhook_url)).toEqual(['https://hooks.example.com/••••', 'https://hooks.slack.com/••••']);
      expect(JSON.stringify(shown)).not.toContain('token');
      // In the database: nothing of either URL in clear.
      const { rows } = await pool.query<{ config: unknown; secrets: string }>('SELECT config, secrets FROM notification_services ORDER BY id');
      expect(JSON.stringify(rows)).not.toContain('hooks.');
      expect(JSON.parse(unseal(rows[0]!.secrets, oldKey))).toMatchObject({ url: hookUrl });
      // A row written before URLs were sealed: its URL still in config, its signing secret sealed under the old key.
      const legacy = await pool.query<{ id: number }>(
        `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'legacy', 'webhook', $2, $3) RETURNING id`,
        [
          project.accountId,
          JSON.stringify({ url: 'https://legacy.example.com/hook?key=k' }),
          seal(JSON.stringify({ secret: 'whsec_bGVnYWN5LXNlY3JldC1sZWdhY3k=' }), oldKey),
        ],
      );
      ids.legacy = Number(legacy.rows[0]!.id);
      const untouched = await pool.query<{ id: number }>(
        `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'legacy, untouched', 'webhook', $2, $3) RETURNING id`,
        [
          project.accountId,
          JSON.stringify({ url: 'https://untouched.example.com/hook?key=u' }),
          seal(JSON.stringify({ secret: 'whsec_dW50b3VjaGVkLXNlY3JldC11bnRvdWNoZWQ=' }), oldKey),
        ],
      );
      ids.untouched = Number(untouched.rows[0]!.id);
      const withLegacy = (await list(gateway.url)).body.data as { id: number; config: Record<string, string> }[];
      expect(withLegacy.find((s) => s.id === ids.legacy)!.config.url).toBe('https://legacy.example.com/••••');
    } finally {
      await gateway.stop();
    }
  });

  it('during the rotation both keys open; the command re-seals every row under the new key; then the new key alone suffices', async () => {
    const during = await startTestGateway({ DATABASE_URL: database.url, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey });
    try {
      const res = await list(during.url);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(4);
      // A service created meanwhile is sealed under the new key.
      const created = await request(`${during.url}/api/v1/notifications`, {
        token: project.userToken,
        body: { name: 'new', type: 'slack', config: { webhook_url: slackUrl } },
      });
      expect(created.status).toBe(201);
      ids.created = created.body.data.id;
      // Updating a row still under the old key keeps its signing secret.
      const renamed = await request(`${during.url}/api/v1/notifications/${ids.legacy}`, {
        method: 'PUT',
        token: project.userToken,
        body: { config: { url: 'https://legacy.example.com/hook2?key=k' } },
      });
      expect(renamed.status).toBe(200);
    } finally {
      await during.stop();
    }

    const rotated = await rotateCommand({ DATABASE_URL: database.url, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey });
    expect(rotated.output).toContain('5 notification services read, 3 sealed again under SECRETS_KEY, 0 opened by neither key');
    expect(rotated.code).toBe(0);
    const { rows } = await pool.query<{ id: string; config: Record<string, unknown>; secrets: string }>(
      'SELECT id, config, secrets FROM notification_services ORDER BY id',
    );
    for (const row of rows) {
      expect(() => unseal(row.secrets, newKey), `row ${row.id}`).not.toThrow();
      expect(row.config, `row ${row.id}`).not.toHaveProperty('url');
    }
    const legacy = JSON.parse(unseal(rows.find((r) => Number(r.id) === ids.legacy)!.secrets, newKey));
    expect(legacy).toEqual({ url: 'https://legacy.example.com/hook2?key=k', secret: 'whsec_bGVnYWN5LXNlY3JldC1sZWdhY3k=' });
    expect(JSON.parse(unseal(rows.find((r) => Number(r.id) === ids.webhook)!.secrets, newKey))).toMatchObject({ url: hookUrl });
    // The command moved a URL still in clear into the sealed part.
    expect(JSON.parse(unseal(rows.find((r) => Number(r.id) === ids.untouched)!.secrets, newKey))).toEqual({
      url: 'https://untouched.example.com/hook?key=u',
      secret: 'whsec_dW50b3VjaGVkLXNlY3JldC11bnRvdWNoZWQ=',
    });

    // Run again: nothing left to do.
    expect((await rotateCommand({ DATABASE_URL: database.url, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey })).output).toContain(
      '5 notification services read, 0 sealed again',
    );

    const after = await startTestGateway({ DATABASE_URL: database.url, SECRETS_KEY: newKey });
    try {
      const res = await list(after.url);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(5);
    } finally {
      await after.stop();
    }
  });

  it('a row neither key opens is named, left unchanged, and fails the command', async () => {
    const stray = seal(JSON.stringify({ webhook_url: slackUrl }), key());
    const inserted = await pool.query<{ id: string }>(
      `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'stray', 'slack', '{}', $2) RETURNING id`,
      [project.accountId, stray],
    );
    const run = await rotateCommand({ DATABASE_URL: database.url, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey });
    expect(run.code).toBe(1);
    expect(run.output).toContain(`notification services ${inserted.rows[0]!.id} open under neither`);
    expect((await pool.query('SELECT secrets FROM notification_services WHERE id = $1', [inserted.rows[0]!.id])).rows[0].secrets).toBe(stray);
    // A weak or missing SECRETS_KEY is refused before anything is read.
    const weak = await rotateCommand({ DATABASE_URL: database.url, SECRETS_KEY: 'pulseboard-development-secrets-key' });
    expect(weak.code).not.toBe(0);
    expect(weak.output).toMatch(/SECRETS_KEY is a published default/);
  });

  it('the notification service delivers, during a rotation, a webhook whose URL and secret the previous key sealed', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    }).listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const { port } = receiver.address() as { port: number };
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    // Not yet re-sealed: under the old key.
    const row = await pool.query<{ id: string }>(
      `INSERT INTO notification_services (account_id, name, kind, config, secrets) VALUES ($1, 'not yet rotated', 'webhook', '{}', $2) RETURNING id`,
      [project.accountId, seal(JSON.stringify({ url: `http://127.0.0.1:${port}/rotating`, secret }), oldKey)],
    );
    const keys = { DATABASE_URL: database.url, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey };
    const gateway = await startTestGateway(keys);
    const notification = await spawnService('notification', {
      ...gateway.env,
      ...keys,
      NOTIFY_ALLOW_TARGETS: `127.0.0.1:${port}`,
      NOTIFICATION_HTTP_PORT: '0',
      NOTIFICATION_SESSION_TIMEOUT_MS: '6000',
    });
    try {
      const sent = await request(`${gateway.url}/api/v1/notifications/${row.rows[0]!.id}/send`, { token: project.userToken, body: {} });
      expect(sent.status).toBe(200);
      // The answer waits NOTIFY_SEND_TIMEOUT_MS for the outcome; a busy machine may answer `pending` first.
      if (sent.body.data.status !== 'delivered') {
        const deliveries = async () =>
          (await request(`${gateway.url}/api/v1/notifications/${row.rows[0]!.id}/deliveries`, { token: project.userToken })).body.data as { status: string }[];
        await waitFor(async () => (await deliveries())[0]?.status === 'delivered', { timeoutMs: 30_000, what: 'the delivery' });
      }
      expect(received).toHaveLength(1);
      expect(() => new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>)).not.toThrow();
    } finally {
      await notification.kill('SIGTERM');
      await gateway.stop();
      receiver.close();
    }
  });
});
