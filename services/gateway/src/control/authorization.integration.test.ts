import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

type Call = { method: string; path: string; body?: unknown };

/**
 * Walks every /api/v1 resource endpoint of this issue with credentials that must
 * not reach the target: another project's or account's ids answer exactly like
 * ids that do not exist (404, no existence leak), and the wrong kind of
 * credential is 401/403. Nothing of the other project changes.
 */
describe('authorization on every project, event, tile and admin endpoint', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let mine: Awaited<ReturnType<typeof provisionProject>>;
  let theirs: Awaited<ReturnType<typeof provisionProject>>;
  let sibling: string;
  let theirTile: number;
  let theirEvent: number;
  const url = (path: string) => `${gateway.url}${path}`;

  const resourceCalls = (project: string, tile: number | string, event: number | string): Call[] => [
    { method: 'GET', path: `/api/v1/projects/${project}` },
    { method: 'PUT', path: `/api/v1/projects/${project}`, body: { name: 'taken over' } },
    { method: 'POST', path: `/api/v1/projects/${project}/regenerate_key`, body: { confirm: true } },
    { method: 'GET', path: `/api/v1/events?project_key=${project}` },
    { method: 'GET', path: `/api/v1/events/${event}` },
    { method: 'GET', path: `/api/v1/events/evt_${event}` },
    { method: 'GET', path: `/api/v1/tiles?project_key=${project}` },
    {
      method: 'POST',
      path: '/api/v1/tiles',
      body: { project_key: project, name: 'intruder', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'is_up' } } },
    },
    { method: 'GET', path: `/api/v1/tiles/${tile}` },
    { method: 'PUT', path: `/api/v1/tiles/${tile}`, body: { name: 'taken over' } },
    { method: 'DELETE', path: `/api/v1/tiles/${tile}` },
  ];
  const send = (call: Call, token?: string) =>
    request(url(call.path), { method: call.method, ...(token === undefined ? {} : { token }), ...(call.body === undefined ? {} : { body: call.body }) });

  beforeAll(async () => {
    gateway = await startTestGateway();
    mine = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    theirs = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    sibling = `${mine.projectKey}-sib`;
    expect(
      (await request(url(`/api/v1/admin/accounts/${mine.accountId}/projects`), { token: TEST_ADMIN_TOKEN, body: { project_key: sibling, name: 'Sibling' } }))
        .status,
    ).toBe(201);
    theirTile = (
      await request(url('/api/v1/tiles'), {
        token: theirs.apiKey,
        body: { name: 'theirs', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'is_up' } } },
      })
    ).body.data.id;
    // An event stored for the other project (as the store writes it), with an id from the real allocator.
    const { pool } = gateway.deps;
    theirEvent = Number((await pool.query("SELECT nextval('event_id_blocks') AS id")).rows[0].id);
    await pool.query("SELECT store_ensure_day_partitions(ARRAY[(now() AT TIME ZONE 'UTC')::date])");
    await pool.query(
      `INSERT INTO events (id, project_key, type, name, occurred_at, received_at) VALUES ($1, $2, 'deployment', 'deploy_finished', now(), now())`,
      [theirEvent, theirs.projectKey],
    );
    expect((await request(url(`/api/v1/events/${theirEvent}`), { token: theirs.apiKey })).status).toBe(200);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it("answers another account's project, events and tiles 404, exactly like ids that do not exist", async () => {
    const foreign = resourceCalls(theirs.projectKey, theirTile, theirEvent);
    const missing = resourceCalls('no-such-project', 999999999999, 999999999999);
    for (const token of [mine.apiKey, mine.userToken]) {
      for (const [i, call] of foreign.entries()) {
        const res = await send(call, token);
        const absent = await send(missing[i]!, token);
        expect({ call: `${call.method} ${call.path}`, status: res.status }).toEqual({ call: `${call.method} ${call.path}`, status: 404 });
        expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
        expect(res.body).toEqual(absent.body);
      }
    }
    // Their project, key, tile and event are untouched.
    const project = await request(url(`/api/v1/projects/${theirs.projectKey}`), { token: theirs.apiKey });
    expect(project.status).toBe(200);
    expect(project.body.data.name).toBe(`Project ${theirs.projectKey}`);
    expect((await request(url(`/api/v1/tiles/${theirTile}`), { token: theirs.userToken })).body.data.name).toBe('theirs');
    expect((await request(url('/api/v1/tiles'), { token: theirs.apiKey })).body.meta.total_count).toBe(1);
    expect((await request(url(`/api/v1/events/${theirEvent}`), { token: theirs.userToken })).status).toBe(200);
  });

  it("keeps a project key out of its account's other projects, while the account's user token reaches them", async () => {
    const siblingTile = (
      await request(url('/api/v1/tiles'), {
        token: mine.userToken,
        body: { project_key: sibling, name: 'sib', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'is_up' } } },
      })
    ).body.data.id;
    for (const call of resourceCalls(sibling, siblingTile, theirEvent).filter((c) => !c.path.startsWith('/api/v1/events/'))) {
      const res = await send(call, mine.apiKey);
      expect({ call: `${call.method} ${call.path}`, status: res.status }).toEqual({ call: `${call.method} ${call.path}`, status: 404 });
    }
    expect((await request(url(`/api/v1/projects/${sibling}`), { token: mine.userToken })).status).toBe(200);
    expect((await request(url(`/api/v1/tiles/${siblingTile}`), { token: mine.userToken })).status).toBe(200);
    expect((await request(url(`/api/v1/events?project_key=${sibling}`), { token: mine.userToken })).status).toBe(200);
    const lists = await request(url('/api/v1/projects'), { token: mine.apiKey });
    expect(lists.body.data.map((p: { project_key: string }) => p.project_key)).toEqual([mine.projectKey]);
  });

  it('answers a missing credential 401 authentication_required and an unknown one 401 invalid_api_key, before reading the body', async () => {
    const calls = [
      ...resourceCalls(mine.projectKey, 1, 1),
      { method: 'GET', path: '/api/v1/projects' },
      { method: 'GET', path: '/api/v1/events' },
      { method: 'GET', path: '/api/v1/tiles' },
    ];
    for (const call of calls) {
      const none = await send(call);
      expect({ call: `${call.method} ${call.path}`, status: none.status, code: none.body.error.code }).toEqual({
        call: `${call.method} ${call.path}`,
        status: 401,
        code: 'authentication_required',
      });
      for (const bad of ['evk_not-a-key', 'evu_not-a-token', TEST_ADMIN_TOKEN]) {
        const res = await send(call, bad);
        expect({ call: `${call.method} ${call.path}`, status: res.status, code: res.body.error.code }).toEqual({
          call: `${call.method} ${call.path}`,
          status: 401,
          code: 'invalid_api_key',
        });
      }
    }
    // An invalid body does not get past authentication.
    const garbage = await request(url(`/api/v1/projects/${mine.projectKey}`), {
      method: 'PUT',
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.status).toBe(401);
  });

  it('keeps project keys and user tokens out of the admin API (403) and the admin token out of user-only actions', async () => {
    const adminCalls: Call[] = [
      { method: 'GET', path: '/api/v1/admin/accounts' },
      { method: 'POST', path: '/api/v1/admin/accounts', body: { name: 'x' } },
      { method: 'GET', path: `/api/v1/admin/accounts/${mine.accountId}/users` },
      { method: 'POST', path: `/api/v1/admin/accounts/${mine.accountId}/users`, body: { email: 'x@example.test' } },
      { method: 'POST', path: '/api/v1/admin/users/1/token' },
      { method: 'DELETE', path: '/api/v1/admin/users/1' },
      { method: 'GET', path: `/api/v1/admin/accounts/${mine.accountId}/projects` },
      { method: 'POST', path: `/api/v1/admin/accounts/${mine.accountId}/projects`, body: { project_key: 'x-intruder', name: 'x' } },
      { method: 'DELETE', path: `/api/v1/admin/projects/${mine.projectKey}` },
    ];
    for (const call of adminCalls) {
      for (const token of [mine.apiKey, mine.userToken]) {
        const res = await send(call, token);
        expect({ call: `${call.method} ${call.path}`, status: res.status, code: res.body.error.code }).toEqual({
          call: `${call.method} ${call.path}`,
          status: 403,
          code: 'forbidden',
        });
      }
      const none = await send(call);
      expect(none.status).toBe(401);
      const wrong = await send(call, 'not-the-admin-token');
      expect(wrong.status).toBe(401);
    }
    // Regenerating a key and changing limits need a user token, even on the key's own project.
    const regenerate = await request(url(`/api/v1/projects/${mine.projectKey}/regenerate_key`), { token: mine.apiKey, body: { confirm: true } });
    expect(regenerate.status).toBe(403);
    expect(regenerate.body.error.code).toBe('user_token_required');
    const limits = await request(url(`/api/v1/projects/${mine.projectKey}`), { method: 'PUT', token: mine.apiKey, body: { monthly_quota: 1 } });
    expect(limits.status).toBe(403);
    expect(limits.body.error.code).toBe('user_token_required');
    // Still there and unchanged.
    expect((await request(url(`/api/v1/projects/${mine.projectKey}`), { token: mine.apiKey })).body.data.monthly_quota).toBe(10000);
  });
});
