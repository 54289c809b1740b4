import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, freePort, provisionProject, request, serviceTestEnv, spawnService, TEST_ADMIN_TOKEN, type ServiceProcess } from '@pulseboard/test-kit';

/**
 * Two gateway processes share Postgres and Redis, as replicas behind a load
 * balancer do. Each caches keys in memory; a change made through one must be
 * in force on the other on the very next request.
 */
describe('key regeneration and limit changes across two gateway processes', () => {
  const gateways: { url: string; process: ServiceProcess }[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    const env = serviceTestEnv();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      gateways.push({ url: `http://127.0.0.1:${port}`, process: await spawnService('gateway', { ...env, GATEWAY_PORT: String(port) }) });
    }
    [a, b] = gateways.map((g) => g.url) as [string, string];
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.process.kill('SIGTERM')));
  });

  /**
   * Uses a key on every path that authenticates with it, on one gateway. The
   * first request decides: a stale entry refreshed by one path would hide a
   * path that never checks, so the order is chosen by the caller.
   */
  const useKey = async (url: string, projectKey: string, apiKey: string, first: 'ingest' | 'read') => {
    const ingest = async () => (await request(`${url}/ingest`, { token: apiKey, body: envelope(projectKey) })).status;
    const early = first === 'ingest' ? await ingest() : undefined;
    const result = {
      events: (await request(`${url}/api/v1/events`, { token: apiKey })).status,
      project: (await request(`${url}/api/v1/projects/${projectKey}`, { token: apiKey })).status,
      health: (await request(`${url}/api/v1/health`, { token: apiKey })).status,
    };
    return { ingest: early ?? (await ingest()), ...result };
  };
  const accepted = { ingest: 201, events: 200, project: 200, health: 200 };
  const refused = { ingest: 401, events: 401, project: 401, health: 401 };

  it('refuses the old key on the very next request on the other gateway, and accepts the new one there at once', async () => {
    const p = await provisionProject(a, TEST_ADMIN_TOKEN);
    // Both gateways have the old key cached, on the ingest path and the read path.
    expect(await useKey(a, p.projectKey, p.apiKey, 'read')).toEqual(accepted);
    expect(await useKey(b, p.projectKey, p.apiKey, 'read')).toEqual(accepted);

    const first = await request(`${a}/api/v1/projects/${p.projectKey}/regenerate_key`, { token: p.userToken, body: { confirm: true } });
    expect(first.status).toBe(200);
    const second = first.body.data.api_key as string;
    expect(await useKey(b, p.projectKey, p.apiKey, 'read')).toEqual(refused);
    expect(await useKey(a, p.projectKey, p.apiKey, 'read')).toEqual(refused);
    expect(await useKey(b, p.projectKey, second, 'read')).toEqual(accepted);
    expect(await useKey(a, p.projectKey, second, 'read')).toEqual(accepted);

    // And the other way round, with the second key now cached on both.
    const third = await request(`${b}/api/v1/projects/${p.projectKey}/regenerate_key`, { token: p.userToken, body: { confirm: true } });
    expect(third.status).toBe(200);
    expect(await useKey(a, p.projectKey, second, 'ingest')).toEqual(refused);
    expect(await useKey(a, p.projectKey, third.body.data.api_key, 'ingest')).toEqual(accepted);
    expect(await useKey(b, p.projectKey, second, 'read')).toEqual(refused);
    expect(await useKey(b, p.projectKey, p.apiKey, 'ingest')).toEqual(refused);
  });

  it('applies a limit changed through one gateway on the next request to the other', async () => {
    const p = await provisionProject(a, TEST_ADMIN_TOKEN);
    expect((await request(`${b}/ingest`, { token: p.apiKey, body: envelope(p.projectKey) })).status).toBe(201);
    const put = await request(`${a}/api/v1/projects/${p.projectKey}`, { method: 'PUT', token: p.userToken, body: { burst_limit: 1 } });
    expect(put.status).toBe(200);
    const limited = await request(`${b}/ingest`, { token: p.apiKey, body: envelope(p.projectKey) });
    expect(limited.status).toBe(429);
    expect(limited.body.rate_limit).toBe(1);
    expect((await request(`${a}/api/v1/projects/${p.projectKey}`, { method: 'PUT', token: p.userToken, body: { burst_limit: 10 } })).status).toBe(200);
    expect((await request(`${b}/ingest`, { token: p.apiKey, body: envelope(p.projectKey) })).status).toBe(201);
  });
});
