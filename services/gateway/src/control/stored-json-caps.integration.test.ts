import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NOTIFICATION_CONFIG_BYTES, MAX_SETTINGS_BYTES } from '@pulseboard/contracts';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

const RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

/** An object whose JSON takes exactly `bytes` bytes: `{"note":"xx…"}`. */
const ofSize = (bytes: number, char = 'x') => ({ note: char.repeat((bytes - '{"note":""}'.length) / Buffer.byteLength(char)) });

describe('free-form JSON a tenant stores is capped in serialised size (issue 41)', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let project: Awaited<ReturnType<typeof provisionProject>>;
  const url = (path: string) => `${gateway.url}${path}`;
  const tooLarge = (res: { status: number; body: any }, field: string, limit: number) => {
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details[field]).toEqual([`is too large (maximum is ${limit} bytes as JSON)`]);
  };

  beforeAll(async () => {
    // The body limit (1 MiB by default) is far above the caps: it is the field's cap that answers.
    gateway = await startTestGateway();
    project = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it(`tile settings: ${MAX_SETTINGS_BYTES} bytes are stored, one more is 400 on create and on update, multi-byte text counted in bytes, a long array too`, async () => {
    expect(Buffer.byteLength(JSON.stringify(ofSize(MAX_SETTINGS_BYTES)))).toBe(MAX_SETTINGS_BYTES);
    const atCap = await request(url('/api/v1/tiles'), {
      token: project.apiKey,
      body: { name: 'At the cap', kind: 'metric', rule: RULE, settings: ofSize(MAX_SETTINGS_BYTES) },
    });
    expect(atCap.status, JSON.stringify(atCap.body).slice(0, 300)).toBe(201);
    tooLarge(
      await request(url('/api/v1/tiles'), {
        token: project.apiKey,
        body: { name: 'Over', kind: 'metric', rule: RULE, settings: ofSize(MAX_SETTINGS_BYTES + 1) },
      }),
      'settings',
      MAX_SETTINGS_BYTES,
    );
    // 6,000 three-byte characters: 6,000 UTF-16 units, 18,000 bytes.
    tooLarge(
      await request(url('/api/v1/tiles'), { token: project.apiKey, body: { name: 'Over', kind: 'metric', rule: RULE, settings: { note: '€'.repeat(6000) } } }),
      'settings',
      MAX_SETTINGS_BYTES,
    );
    // The shape: a huge array (90,000 items; 99,990 meets the body's cap on JSON values first, 413).
    tooLarge(
      await request(url('/api/v1/tiles'), {
        token: project.apiKey,
        body: { name: 'Over', kind: 'metric', rule: RULE, settings: { items: Array.from({ length: 90_000 }, () => 1) } },
      }),
      'settings',
      MAX_SETTINGS_BYTES,
    );
    tooLarge(
      await request(url(`/api/v1/tiles/${atCap.body.data.id}`), { method: 'PUT', token: project.apiKey, body: { settings: ofSize(MAX_SETTINGS_BYTES + 1) } }),
      'settings',
      MAX_SETTINGS_BYTES,
    );
    const stored = await request(url(`/api/v1/tiles/${atCap.body.data.id}`), { token: project.apiKey });
    expect(stored.body.data.settings).toEqual(ofSize(MAX_SETTINGS_BYTES));
  });

  it('project settings: over the cap is 400', async () => {
    const atCap = await request(url(`/api/v1/projects/${project.projectKey}`), {
      method: 'PUT',
      token: project.userToken,
      body: { settings: ofSize(MAX_SETTINGS_BYTES) },
    });
    expect(atCap.status, JSON.stringify(atCap.body).slice(0, 300)).toBe(200);
    tooLarge(
      await request(url(`/api/v1/projects/${project.projectKey}`), {
        method: 'PUT',
        token: project.userToken,
        body: { settings: ofSize(MAX_SETTINGS_BYTES + 1) },
      }),
      'settings',
      MAX_SETTINGS_BYTES,
    );
  });

  it('notification service config: over the cap is 400 on create and on update', async () => {
    const config = (bytes: number) => ({ url: 'https://hooks.example.com/x', ...ofSize(bytes - '"url":"https://hooks.example.com/x",'.length) });
    expect(Buffer.byteLength(JSON.stringify(config(MAX_NOTIFICATION_CONFIG_BYTES + 1)))).toBe(MAX_NOTIFICATION_CONFIG_BYTES + 1);
    tooLarge(
      await request(url('/api/v1/notifications'), {
        token: project.userToken,
        body: { name: 'big', type: 'webhook', config: config(MAX_NOTIFICATION_CONFIG_BYTES + 1) },
      }),
      'config',
      MAX_NOTIFICATION_CONFIG_BYTES,
    );
    const created = await request(url('/api/v1/notifications'), {
      token: project.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
    });
    expect(created.status).toBe(201);
    tooLarge(
      await request(url(`/api/v1/notifications/${created.body.data.id}`), {
        method: 'PUT',
        token: project.userToken,
        body: { config: config(MAX_NOTIFICATION_CONFIG_BYTES + 1) },
      }),
      'config',
      MAX_NOTIFICATION_CONFIG_BYTES,
    );
  });
});
