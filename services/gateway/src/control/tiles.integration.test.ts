import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

const rule = { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

describe('tiles API: create, read, update, delete', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('creates a tile with the project key, stores the rule as given, and reads it back', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const created = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'CPU', kind: 'metric', rule, settings: { notify: [] } } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      project_key: p.projectKey,
      name: 'CPU',
      kind: 'metric',
      rule,
      settings: { notify: [] },
      position: 0,
      notification_service_ids: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.data.id as number;
    const read = await request(url(`/api/v1/tiles/${id}`), { token: p.apiKey });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    const byUser = await request(url(`/api/v1/tiles/${id}`), { token: p.userToken });
    expect(byUser.body.data).toEqual(created.body.data);
  });

  it('lists tiles in dashboard order with pagination, narrowed by project_key for a user token', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const otherKey = `${p.projectKey}-2`;
    expect(
      (await request(url(`/api/v1/admin/accounts/${p.accountId}/projects`), { token: TEST_ADMIN_TOKEN, body: { project_key: otherKey, name: 'Two' } })).status,
    ).toBe(201);
    // Positions default to the end of the project's dashboard.
    const names: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const res = await request(url('/api/v1/tiles'), { token: p.userToken, body: { project_key: p.projectKey, name, kind: 'counter', rule } });
      expect(res.status).toBe(201);
      names.push(res.body.data.name);
    }
    expect((await request(url('/api/v1/tiles'), { token: p.userToken, body: { project_key: otherKey, name: 'other', kind: 'counter', rule } })).status).toBe(
      201,
    );
    const first = await request(url('/api/v1/tiles'), {
      token: p.userToken,
      body: { project_key: p.projectKey, name: 'first', kind: 'counter', rule, position: 0 },
    });
    expect(first.body.data.position).toBe(0);

    const mine = await request(url(`/api/v1/tiles?project_key=${p.projectKey}`), { token: p.userToken });
    expect(mine.status).toBe(200);
    // Ties in position keep creation order.
    expect(mine.body.data.map((t: { name: string; position: number }) => `${t.name}@${t.position}`)).toEqual(['a@0', 'first@0', 'b@1', 'c@2']);
    expect(mine.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 4, per_page: 25 });

    const all = await request(url('/api/v1/tiles?per_page=2&page=3'), { token: p.userToken });
    expect(all.body.meta).toEqual({ current_page: 3, total_pages: 3, total_count: 5, per_page: 2 });
    expect(all.body.data.map((t: { name: string }) => t.name)).toEqual(['other']);

    // A project key sees its own project's tiles only.
    const byKey = await request(url('/api/v1/tiles'), { token: p.apiKey });
    expect(byKey.body.meta.total_count).toBe(4);
    expect(byKey.body.data.every((t: { project_key: string }) => t.project_key === p.projectKey)).toBe(true);
  });

  it('updates the fields given and deletes; a deleted tile is 404', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const created = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'Deploys', kind: 'deployment', rule } });
    const id = created.body.data.id as number;
    const newRule = { filter: { type: 'deployment' }, evaluation: { kind: 'status_map', map: { deploy_failed: 'critical' } } };
    const put = await request(url(`/api/v1/tiles/${id}`), { method: 'PUT', token: p.userToken, body: { name: 'Deployments', rule: newRule, position: 7 } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ id, name: 'Deployments', kind: 'deployment', rule: newRule, position: 7, settings: {} });
    expect(Date.parse(put.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updated_at));
    expect((await request(url(`/api/v1/tiles/${id}`), { token: p.apiKey })).body.data).toEqual(put.body.data);

    const del = await request(url(`/api/v1/tiles/${id}`), { method: 'DELETE', token: p.apiKey });
    expect(del.status).toBe(204);
    for (const method of ['GET', 'DELETE']) {
      const gone = await request(url(`/api/v1/tiles/${id}`), { method, token: p.apiKey });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ error: { code: 'not_found', message: 'Tile not found' } });
    }
    expect((await request(url('/api/v1/tiles'), { token: p.apiKey })).body.meta.total_count).toBe(0);
  });

  it('validates bodies: 400 validation_error with details, nothing stored', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const bad = await request(url('/api/v1/tiles'), {
      token: p.apiKey,
      body: { name: '', kind: 'Not A Kind', rule: [1], settings: 'x', position: -1, colour: 'red' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details).toEqual({
      name: ["can't be blank"],
      kind: ['is invalid'],
      rule: ['must be an object'],
      settings: ['must be an object'],
      position: ['must be greater than or equal to 0'],
      colour: ['is not a known field'],
    });
    const missing = await request(url('/api/v1/tiles'), { token: p.apiKey, body: {} });
    expect(missing.body.error.details).toEqual({ name: ["can't be blank"], kind: ["can't be blank"], rule: ["can't be blank"] });
    const emptyRule = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'x', kind: 'metric', rule: {} } });
    // The rule format (contracts' tile-rule.json): details keyed by the rule path.
    expect(emptyRule.body.error.details).toEqual({ 'rule.evaluation': ["can't be blank"] });
    const badRule = await request(url('/api/v1/tiles'), {
      token: p.apiKey,
      body: {
        name: 'x',
        kind: 'metric',
        rule: { filter: { name: 'x'.repeat(201), attributes: { status_code: { gt: 'high' } } }, evaluation: { kind: 'gauge' }, pending: '5 minutes' },
      },
    });
    expect(badRule.status).toBe(400);
    expect(badRule.body.error.details).toMatchObject({
      'rule.evaluation.kind': ['is not included in the list'],
      'rule.pending': ['is not a valid duration'],
    });
    expect(Object.keys(badRule.body.error.details)).toEqual(expect.arrayContaining(['rule.filter.name', 'rule.filter.attributes.status_code.gt']));
    // What the schema cannot say: level order along the direction, duration maxima.
    const misordered = await request(url('/api/v1/tiles'), {
      token: p.apiKey,
      body: { name: 'x', kind: 'metric', rule: { evaluation: { kind: 'threshold', attribute: 'value', warning: 90, critical: 80 }, stale_after: '90d' } },
    });
    expect(misordered.body.error.details).toEqual({
      'rule.evaluation.critical': ['must be greater than warning (90) when direction is above'],
      'rule.stale_after': ['is too long (maximum is 30d)'],
    });
    // A rule the schema accepts can still be too large to evaluate on every event.
    const names = Array.from({ length: 100 }, (_, i) => `${'x'.repeat(190)}${i}`);
    const huge = await request(url('/api/v1/tiles'), {
      token: p.apiKey,
      body: {
        name: 'x',
        kind: 'metric',
        rule: { filter: { name: names }, evaluation: { kind: 'status_map', map: Object.fromEntries(names.map((n) => [n, 'ok'])) } },
      },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.details).toEqual({ rule: ['is too large (maximum is 16384 bytes)'] });
    // A user token must say which project.
    const noProject = await request(url('/api/v1/tiles'), { token: p.userToken, body: { name: 'x', kind: 'metric', rule } });
    expect(noProject.status).toBe(400);
    expect(noProject.body.error.details).toEqual({ project_key: ["can't be blank"] });

    const created = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'ok', kind: 'metric', rule } });
    const id = created.body.data.id as number;
    const moved = await request(url(`/api/v1/tiles/${id}`), { method: 'PUT', token: p.apiKey, body: { project_key: 'elsewhere' } });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details).toEqual({ project_key: ['is not a known field'] });
    const empty = await request(url(`/api/v1/tiles/${id}`), { method: 'PUT', token: p.apiKey, body: {} });
    expect(empty.status).toBe(400);
    expect((await request(url('/api/v1/tiles'), { token: p.apiKey })).body.data.map((t: { name: string }) => t.name)).toEqual(['ok']);
  });

  it('bounds free-form JSON as event attributes are: 32 levels, finite numbers, 400 with details (tile rule and settings, project settings)', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
    const post = (path: string, method: string, body: string) =>
      request(url(path), { method, token: p.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } });
    const tile = (fields: string) => `{"name":"CPU","kind":"metric","rule":${JSON.stringify(rule)},${fields}}`;
    const tooDeep = ['is nested too deeply (maximum is 32 levels)'];

    const deepSettings = await post('/api/v1/tiles', 'POST', tile(`"settings":${nested(3000)}`));
    expect(deepSettings.status).toBe(400);
    expect(deepSettings.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: { settings: tooDeep } } });
    // The rule's schema is closed, so a deep rule fails on its first unknown level.
    const deepRule = await post(
      '/api/v1/tiles',
      'POST',
      `{"name":"CPU","kind":"metric","rule":{"evaluation":{"kind":"up_down","attribute":"is_up"},"filter":${nested(3000)}}}`,
    );
    expect(deepRule.status).toBe(400);
    expect(deepRule.body.error.details).toEqual({ 'rule.filter.a': ['is not a known field'] });
    const huge = await post('/api/v1/tiles', 'POST', tile('"settings":{"threshold":1e400}'));
    expect(huge.status).toBe(400);
    expect(huge.body.error.details).toEqual({ settings: ['must contain only finite numbers'] });
    const project = await post(`/api/v1/projects/${p.projectKey}`, 'PUT', `{"settings":${nested(40)}}`);
    expect(project.status).toBe(400);
    expect(project.body.error.details).toEqual({ settings: tooDeep });
    expect((await request(url('/api/v1/tiles'), { token: p.apiKey })).body.data).toEqual([]);
    expect((await post('/api/v1/tiles', 'POST', tile(`"settings":${nested(32)}`))).status).toBe(201);
  });

  it("answers the state of a tile not yet evaluated as unknown at version 0; another account's tile state is 404", async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const other = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const created = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'x', kind: 'metric', rule } });
    const state = await request(url(`/api/v1/tiles/${created.body.data.id}/state`), { token: p.apiKey });
    expect(state.status).toBe(200);
    expect(state.body.data).toEqual({
      tile_id: created.body.data.id,
      project_key: p.projectKey,
      status: 'unknown',
      value: null,
      version: 0,
      last_event_id: null,
      changed_at: created.body.data.created_at,
    });
    for (const token of [other.apiKey, other.userToken]) {
      const foreign = await request(url(`/api/v1/tiles/${created.body.data.id}/state`), { token });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('not_found');
    }
  });
});
