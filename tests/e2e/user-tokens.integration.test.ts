import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, serviceTestEnv, TEST_ADMIN_TOKEN, waitFor } from '@pulseboard/test-kit';
import { loadGatewayEnv } from '../../services/gateway/src/env.ts';
import { startGateway, type GatewayService } from '../../services/gateway/src/service.ts';
import { loadBroadcastEnv } from '../../services/broadcast/src/env.ts';
import { startBroadcast, type BroadcastService } from '../../services/broadcast/src/service.ts';
import { TestSocket } from './ws-client.ts';

/**
 * User tokens (issue 24): issued with a label and an optional expiry, listed
 * without their secret, revoked one by one. Two gateways share Postgres and
 * Redis as replicas do; a revocation through one is in force on the other on
 * the very next request, and broadcast closes the token's sockets with 4003.
 */
describe('user tokens: expiry, list, revoke', () => {
  let a: GatewayService;
  let b: GatewayService;
  let broadcast: BroadcastService;

  beforeAll(async () => {
    const env = serviceTestEnv({ GATEWAY_PORT: '0', BROADCAST_PORT: '0', BROADCAST_REVALIDATE_MS: '200' });
    [a, b, broadcast] = await Promise.all([startGateway(loadGatewayEnv(env)), startGateway(loadGatewayEnv(env)), startBroadcast(loadBroadcastEnv(env))]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), broadcast?.stop()]);
  });

  const admin = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${a.url}/api/v1/admin${path}`, { token: TEST_ADMIN_TOKEN, ...init });
  const projects = (url: string, token: string) => request(`${url}/api/v1/projects`, { token });

  it('lists tokens without secrets; a revoked token is refused on the next request to another gateway and its socket closes with 4003', async () => {
    const p = await provisionProject(a.url, TEST_ADMIN_TOKEN);
    const users = await admin(`/accounts/${p.accountId}/users`);
    const userId = users.body.data[0].id as number;
    const issued = await admin(`/users/${userId}/tokens`, { body: { label: 'ci' } });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      id: expect.any(Number),
      user_id: userId,
      label: 'ci',
      prefix: issued.body.token.slice(0, 10),
      created_at: expect.any(String),
      expires_at: null,
      last_used_at: null,
      token: expect.stringMatching(/^evu_[A-Za-z0-9_-]{43}$/),
    });
    const token = issued.body.token as string;
    expect((await projects(b.url, token)).status).toBe(200);

    const listed = await admin(`/users/${userId}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { label: string }) => t.label)).toEqual(['default', 'ci']);
    // Never the secret, nor anything derived from it beyond the prefix.
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(10));
    for (const t of listed.body.data) expect(Object.keys(t).sort()).toEqual(['created_at', 'expires_at', 'id', 'label', 'last_used_at', 'prefix', 'user_id']);
    // last_used_at is written off the request's path: it shows up shortly.
    await waitFor(async () => (await admin(`/users/${userId}/tokens`)).body.data[1].last_used_at !== null, { what: 'last_used_at of the used token' });

    const socket = await TestSocket.open(broadcast.url, { headerToken: token });
    expect((await admin(`/users/${userId}/tokens/${issued.body.id}`, { method: 'DELETE' })).status).toBe(204);
    const refused = await projects(b.url, token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'invalid_api_key', message: expect.any(String) } });
    expect((await projects(a.url, token)).status).toBe(401);
    // The user's other token is untouched.
    expect((await projects(b.url, p.userToken)).status).toBe(200);
    await waitFor(() => socket.closed, { what: 'the revoked token’s socket to close', timeoutMs: 10_000 });
    expect(socket.closed!.code).toBe(4003);

    expect((await admin(`/users/${userId}/tokens/${issued.body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(listed.body.data.length - 1).toBe((await admin(`/users/${userId}/tokens`)).body.data.length);
  });

  it('refuses an expired token with 401 in the error shape, saying so, on every gateway and on the WebSocket upgrade', async () => {
    const p = await provisionProject(a.url, TEST_ADMIN_TOKEN);
    const userId = (await admin(`/accounts/${p.accountId}/users`)).body.data[0].id as number;
    const past = await admin(`/users/${userId}/tokens`, { body: { expires_at: new Date(Date.now() - 1000).toISOString() } });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'validation_error', details: { expires_at: ['must be in the future'] } });

    const expiresAt = new Date(Date.now() + 1500);
    const issued = await admin(`/users/${userId}/tokens`, { body: { label: 'short', expires_at: expiresAt.toISOString() } });
    expect(issued.status).toBe(201);
    expect(new Date(issued.body.expires_at).getTime()).toBe(expiresAt.getTime());
    expect((await projects(a.url, issued.body.token)).status).toBe(200);
    const expired = await waitFor(
      async () => {
        const r = await projects(b.url, issued.body.token);
        return r.status === 401 ? r : undefined;
      },
      { what: 'the token to expire', timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(expired.body).toEqual({ error: { code: 'invalid_api_key', message: 'The user token has expired' } });
    expect((await projects(a.url, issued.body.token)).body.error.message).toBe('The user token has expired');
    await expect(TestSocket.open(broadcast.url, { headerToken: issued.body.token })).rejects.toThrow(/401/);
    // Still listed (with its expiry) until revoked.
    expect((await admin(`/users/${userId}/tokens`)).body.data.map((t: { label: string }) => t.label)).toEqual(['default', 'short']);
  });

  it("lets a user manage their own tokens: issue with an expiry, list, revoke; never another user's, never with a project key", async () => {
    const p = await provisionProject(a.url, TEST_ADMIN_TOKEN);
    const other = await provisionProject(a.url, TEST_ADMIN_TOKEN);
    const own = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${a.url}/api/v1/tokens${path}`, { token: p.userToken, ...init });

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const issued = await own('', { body: { label: 'laptop', expires_at: expiresAt } });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ label: 'laptop', expires_at: expiresAt, token: expect.stringMatching(/^evu_/) });
    expect((await projects(b.url, issued.body.token)).status).toBe(200);

    const listed = await own('');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { label: string }) => t.label)).toEqual(['default', 'laptop']);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.token.slice(10));

    // Another account's user sees only their own tokens and cannot revoke these: 404, no existence leak.
    const theirs = await request(`${a.url}/api/v1/tokens`, { token: other.userToken });
    expect(theirs.body.data.map((t: { id: number }) => t.id)).not.toContain(issued.body.id);
    const foreign = await request(`${a.url}/api/v1/tokens/${issued.body.id}`, { method: 'DELETE', token: other.userToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    // A project key may not manage tokens.
    const byKey = await request(`${a.url}/api/v1/tokens`, { token: p.apiKey });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('user_token_required');
    // A past expiry is refused.
    expect((await own('', { body: { expires_at: new Date(Date.now() - 1000).toISOString() } })).body.error).toMatchObject({
      code: 'validation_error',
      details: { expires_at: ['must be in the future'] },
    });

    // The new token revokes itself; refused on the very next request to the other gateway.
    expect((await request(`${a.url}/api/v1/tokens/${issued.body.id}`, { method: 'DELETE', token: issued.body.token })).status).toBe(204);
    expect((await projects(b.url, issued.body.token)).status).toBe(401);
    expect((await own('')).body.data.map((t: { label: string }) => t.label)).toEqual(['default']);
  });
});
