import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, provisionProject, request, TEST_ADMIN_TOKEN, waitFor } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

describe('user tokens minted by user tokens, and the headers of credential answers (issue 41)', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  /** A user of a fresh account and a token of theirs issued by the admin with this expiry (none: never). */
  const userWithToken = async (expiresAt?: Date) => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const users = await request(url(`/api/v1/admin/accounts/${p.accountId}/users`), { token: TEST_ADMIN_TOKEN });
    const userId = users.body.data[0].id as number;
    const issued = await request(url(`/api/v1/admin/users/${userId}/tokens`), {
      token: TEST_ADMIN_TOKEN,
      body: { label: 'parent', ...(expiresAt === undefined ? {} : { expires_at: expiresAt.toISOString() }) },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    return { ...p, userId, parent: issued.body.token as string };
  };
  const mint = (token: string, body: Record<string, unknown> = {}) => request(url('/api/v1/tokens'), { token, body });

  it('a token with an expiry mints only tokens that expire no later: omitted is its own expiry, later is 400, earlier is fine', async () => {
    const parentExpiry = new Date(Date.now() + 60 * 60_000);
    parentExpiry.setMilliseconds(0);
    const { parent } = await userWithToken(parentExpiry);

    const omitted = await mint(parent, { label: 'omitted' });
    expect(omitted.status, JSON.stringify(omitted.body)).toBe(201);
    expect(new Date(omitted.body.expires_at).getTime()).toBe(parentExpiry.getTime());

    for (const later of ['2999-01-01T00:00:00Z', new Date(parentExpiry.getTime() + 1000).toISOString()]) {
      const refused = await mint(parent, { expires_at: later });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('validation_error');
      expect(refused.body.error.details.expires_at[0]).toContain('must not be later than the expiry of the token making the request');
    }

    const earlier = new Date(Date.now() + 10 * 60_000);
    const shorter = await mint(parent, { expires_at: earlier.toISOString() });
    expect(shorter.status).toBe(201);
    expect(new Date(shorter.body.expires_at).getTime()).toBe(earlier.getTime());
    // A child with an expiry cannot outlive itself either: the rule holds at every generation.
    expect((await mint(shorter.body.token, { expires_at: parentExpiry.toISOString() })).status).toBe(400);

    // A token without an expiry mints any, or none.
    const { parent: forever } = await userWithToken();
    const unbounded = await mint(forever, {});
    expect(unbounded.status).toBe(201);
    expect(unbounded.body.expires_at).toBeNull();
    expect((await mint(forever, { expires_at: '2999-01-01T00:00:00Z' })).status).toBe(201);
  });

  it('a short-lived token’s child stops working when the parent does', async () => {
    const { parent } = await userWithToken(new Date(Date.now() + 3000));
    const child = await mint(parent, {});
    expect(child.status).toBe(201);
    expect((await request(url('/api/v1/tokens'), { token: child.body.token })).status).toBe(200);
    await waitFor(async () => (await request(url('/api/v1/tokens'), { token: parent })).status === 401, { timeoutMs: 10_000, what: 'the parent expired' });
    await waitFor(async () => (await request(url('/api/v1/tokens'), { token: child.body.token })).status === 401, {
      timeoutMs: 5_000,
      what: 'the child expired with it',
    });
  });

  it('70 concurrent mints leave the user exactly 50 tokens (the cap, counted under the cap lock)', async () => {
    const { parent, userId } = await userWithToken();
    const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => mint(parent, { label: `c${i}` })));
    const statuses = answers.map((a) => a.status);
    const held = await request(url(`/api/v1/admin/users/${userId}/tokens`), { token: TEST_ADMIN_TOKEN });
    expect(held.body.data).toHaveLength(50);
    // Two tokens already (the first one and the parent): 48 more were issued, the rest refused.
    expect(statuses.filter((s) => s === 201)).toHaveLength(48);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect(answers.find((a) => a.status === 409)?.body.error.code).toBe('resource_limit_reached');
  });

  it('answers carry X-Content-Type-Options: nosniff, and Cache-Control: no-store on everything that returns a credential', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const noStore = (res: { headers: Headers }, what: string) => {
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    };
    const minted = await mint(p.userToken, { label: 'h' });
    expect(minted.status).toBe(201);
    noStore(minted, 'POST /api/v1/tokens (201 with a new user token)');
    const regenerated = await request(url(`/api/v1/projects/${p.projectKey}/regenerate_key`), { token: p.userToken, body: { confirm: true } });
    expect(regenerated.status).toBe(200);
    noStore(regenerated, 'key regeneration');
    const project = await request(url(`/api/v1/admin/accounts/${p.accountId}/projects`), {
      token: TEST_ADMIN_TOKEN,
      body: { project_key: `${p.projectKey}-h`, name: 'Headers' },
    });
    expect(project.status).toBe(201);
    noStore(project, 'project creation (admin)');
    const user = await request(url(`/api/v1/admin/accounts/${p.accountId}/users`), {
      token: TEST_ADMIN_TOKEN,
      body: { email: `h-${p.projectKey}@example.test` },
    });
    expect(user.status).toBe(201);
    noStore(user, 'user creation (admin)');
    noStore(await request(url('/api/v1/tokens'), { token: p.userToken }), 'a list');
    noStore(await request(url('/api/v1/tokens'), { token: 'evu_wrong' }), 'a 401');
    noStore(await request(url('/ingest'), { token: project.body.api_key, body: envelope(`${p.projectKey}-h`) }), 'ingest');
    const missing = await fetch(url('/no/such/path'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(url('/healthz'))).headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(url('/docs'))).headers.get('x-content-type-options')).toBe('nosniff');
  });
});
