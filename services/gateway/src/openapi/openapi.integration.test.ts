import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT, provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

const rule = { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };

describe('the OpenAPI document and /docs, served by the gateway', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves the document at /api/v1/openapi.json, the same as docs/openapi.json', async () => {
    const served = await request(url('/api/v1/openapi.json'));
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')));
  });

  it('serves the interactive page at /docs with its own assets: nothing from another host', async () => {
    const page = await fetch(url('/docs/'), { redirect: 'follow' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset, 'no CDN').not.toMatch(/^(https?:)?\/\//);
      const res = await fetch(new URL(asset, url('/docs/')));
      expect(res.status, asset).toBe(200);
    }
    // The page's script points swagger-ui at the served document.
    const init = await (await fetch(url('/docs/static/swagger-initializer.js'))).text();
    expect(init).toContain('/api/v1/openapi.json');
    // No URL of another host in its strings (a comment names a web page; that loads nothing).
    expect(init).not.toMatch(/["'`]https?:\/\//);
  });

  it('refuses unknown query parameters of lists with 400 naming them (q and attributes.* are not filters)', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    for (const [path, names] of [
      ['/api/v1/events?q=TypeError', ['q']],
      ['/api/v1/events?attributes.host=web-1&type=error', ['attributes.host']],
      ['/api/v1/tiles?per_pag=5', ['per_pag']],
      ['/api/v1/projects?sort=name', ['sort']],
    ] as const) {
      const res = await request(url(path), { token: p.apiKey });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(Object.keys(res.body.error.details)).toEqual(names);
      expect(res.body.error.details[names[0]][0]).toMatch(/^is not a known parameter/);
    }
    const notifications = await request(url('/api/v1/notifications?colour=red'), { token: p.userToken });
    expect(notifications.status).toBe(400);
    expect(notifications.body.error.details).toHaveProperty('colour');
    // Known parameters still work.
    expect((await request(url('/api/v1/events?type=error&page=1&per_page=5'), { token: p.apiKey })).status).toBe(200);
  });

  it('accepts a DELETE with Content-Type: application/json and no body', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const tile = await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'CPU', kind: 'metric', rule } });
    expect(tile.status).toBe(201);
    const deleted = await request(url(`/api/v1/tiles/${tile.body.data.id}`), {
      method: 'DELETE',
      token: p.apiKey,
      headers: { 'content-type': 'application/json' },
    });
    expect(deleted.status).toBe(204);
    expect((await request(url(`/api/v1/tiles/${tile.body.data.id}`), { token: p.apiKey })).status).toBe(404);
  });

  it("gives a tile's notification_service_ids as integers, like the services' own ids", async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const service = await request(url('/api/v1/notifications'), {
      token: p.userToken,
      body: { name: 'ops', type: 'email', config: { to: ['ops@example.test'] } },
    });
    expect(service.status).toBe(201);
    const id = service.body.data.id;
    expect(Number.isInteger(id)).toBe(true);
    const tile = await request(url('/api/v1/tiles'), {
      token: p.userToken,
      body: { project_key: p.projectKey, name: 'CPU', kind: 'metric', rule, notification_service_ids: [id] },
    });
    expect(tile.body.data.notification_service_ids).toEqual([id]);
    const listed = await request(url(`/api/v1/tiles?project_key=${p.projectKey}`), { token: p.userToken });
    expect(listed.body.data[0].notification_service_ids).toEqual([id]);
  });
});
