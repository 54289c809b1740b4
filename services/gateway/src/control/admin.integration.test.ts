import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, TEST_ADMIN_TOKEN, uniqueName } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

describe('admin API (ADMIN_TOKEN)', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const url = (path: string) => `${gateway.url}/api/v1/admin${path}`;
  const admin = (path: string, init: Parameters<typeof request>[1] = {}) => request(url(path), { token: TEST_ADMIN_TOKEN, ...init });

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('refuses limits beyond a Postgres integer with 400 naming the field, not a 500 (found by the fuzzing suite)', async () => {
    const big = 2147483648;
    const account = await admin('/accounts', { body: { name: uniqueName('acct'), hourly_request_limit: big } });
    expect(account.status).toBe(400);
    expect(Object.keys(account.body.error.details)).toEqual(['hourly_request_limit']);
    const created = await admin('/accounts', { body: { name: uniqueName('acct') } });
    for (const field of ['monthly_quota', 'burst_limit', 'hourly_request_limit']) {
      const project = await admin(`/accounts/${created.body.id}/projects`, { body: { project_key: uniqueName('proj'), name: 'P', [field]: big } });
      expect(project.status).toBe(400);
      expect(Object.keys(project.body.error.details)).toEqual([field]);
    }
  });

  it('answers the three calls fixed by CONTRACT.md exactly as written there', async () => {
    const name = uniqueName('acct');
    const account = await admin('/accounts', { body: { name } });
    expect(account.status).toBe(201);
    expect(account.body).toMatchObject({ id: expect.any(Number), name });

    const email = `${uniqueName('u')}@example.test`;
    const user = await admin(`/accounts/${account.body.id}/users`, { body: { email } });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ id: expect.any(Number), email, token: expect.stringMatching(/^evu_[A-Za-z0-9_-]{43}$/) });

    const key = uniqueName('proj');
    const project = await admin(`/accounts/${account.body.id}/projects`, { body: { project_key: key, name: 'P', monthly_quota: 42 } });
    expect(project.status).toBe(201);
    expect(project.body).toMatchObject({ project_key: key, name: 'P', monthly_quota: 42, api_key: expect.stringMatching(/^evk_[A-Za-z0-9_-]{43}$/) });
    // The secrets work for what they are for.
    expect((await request(`${gateway.url}/api/v1/projects`, { token: user.body.token })).body.data.map((p: { project_key: string }) => p.project_key)).toEqual([
      key,
    ]);
    expect((await request(`${gateway.url}/ingest`, { token: project.body.api_key, body: envelope(key) })).status).toBe(201);

    const duplicate = await admin(`/accounts/${account.body.id}/projects`, { body: { project_key: key, name: 'again' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: { project_key: ['has already been taken'] } } });
  });

  it('validates admin bodies and answers unknown accounts 404', async () => {
    const bad = await admin('/accounts', { body: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ name: ["can't be blank"] });
    const badProject = await admin('/accounts/1/projects', { body: { project_key: 'Not Valid', name: 'x', monthly_quota: -5 } });
    expect(badProject.status).toBe(400);
    expect(Object.keys(badProject.body.error.details).sort()).toEqual(['monthly_quota', 'project_key']);
    for (const path of ['/accounts/999999999/users', '/accounts/999999999/projects']) {
      expect((await admin(path)).status).toBe(404);
      expect(
        (await admin(path, { body: path.endsWith('users') ? { email: 'nobody@example.test' } : { project_key: uniqueName('x'), name: 'x' } })).status,
      ).toBe(404);
    }
  });

  it('lists accounts, users and projects; issues a new user token (old one refused); revokes users; deletes projects', async () => {
    const account = (await admin('/accounts', { body: { name: uniqueName('ops') } })).body;
    const email = `${uniqueName('ops')}@example.test`;
    const user = (await admin(`/accounts/${account.id}/users`, { body: { email } })).body;
    const key = uniqueName('ops');
    const project = (await admin(`/accounts/${account.id}/projects`, { body: { project_key: key, name: 'Ops' } })).body;

    const accounts = await admin('/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.body.data).toContainEqual(expect.objectContaining({ id: account.id, name: account.name }));
    const users = await admin(`/accounts/${account.id}/users`);
    expect(users.body.data).toEqual([{ id: user.id, account_id: account.id, email, created_at: expect.any(String) }]);
    expect(JSON.stringify(users.body)).not.toContain('evu_');
    const projects = await admin(`/accounts/${account.id}/projects`);
    expect(projects.body.data.map((p: { project_key: string }) => p.project_key)).toEqual([key]);
    expect(JSON.stringify(projects.body)).not.toContain(project.api_key);

    const reissued = await admin(`/users/${user.id}/token`, { method: 'POST' });
    expect(reissued.status).toBe(201);
    expect(reissued.body).toEqual({ id: user.id, account_id: account.id, email, token: expect.stringMatching(/^evu_/) });
    expect((await request(`${gateway.url}/api/v1/projects`, { token: user.token })).status).toBe(401);
    expect((await request(`${gateway.url}/api/v1/projects`, { token: reissued.body.token })).status).toBe(200);

    expect((await admin(`/users/${user.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(`${gateway.url}/api/v1/projects`, { token: reissued.body.token })).status).toBe(401);
    expect((await admin(`/users/${user.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin(`/users/${user.id}/token`, { method: 'POST' })).status).toBe(404);

    expect((await request(`${gateway.url}/ingest`, { token: project.api_key, body: envelope(key) })).status).toBe(201);
    expect((await admin(`/projects/${key}`, { method: 'DELETE' })).status).toBe(204);
    const afterDelete = await request(`${gateway.url}/ingest`, { token: project.api_key, body: envelope(key) });
    expect(afterDelete.status).toBe(404);
    expect((await request(`${gateway.url}/api/v1/events`, { token: project.api_key })).body.error.code).toBe('project_not_found');
    expect((await admin(`/accounts/${account.id}/projects`)).body.data).toEqual([]);
    expect((await admin(`/projects/${key}`, { method: 'DELETE' })).status).toBe(404);
  });
});
