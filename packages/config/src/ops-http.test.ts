import { afterEach, describe, expect, it } from 'vitest';
import { Counter, Registry } from 'prom-client';
import { startOpsServer, type OpsServer } from './ops-http.ts';

/** The one probes-and-metrics listener the consumer services (store, rule engine, notification) start. */
describe('startOpsServer', () => {
  let server: OpsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers /healthz always, /readyz by its checks (503 in the envelope naming the failing one), /metrics from the registry', async () => {
    const registry = new Registry();
    new Counter({ name: 'ops_test_total', help: 'a counter of this test', registers: [registry] }).inc(3);
    let joined = false;
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry, readiness: () => ({ kafka_group: joined, postgres: true }) });

    expect(await (await fetch(`${server.address}/healthz`)).json()).toEqual({ status: 'ok' });
    const notReady = await fetch(`${server.address}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).not.toBeNull();
    expect(await notReady.json()).toMatchObject({
      error: { code: 'service_unavailable', message: 'Not ready: kafka_group', details: { kafka_group: ['is not ready'] } },
    });
    joined = true;
    const ready = await fetch(`${server.address}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { kafka_group: true, postgres: true } }]);

    const metrics = await (await fetch(`${server.address}/metrics`)).text();
    expect(metrics).toContain('ops_test_total 3');
    expect(metrics).toContain('pulseboard_http_request_duration_seconds_count{method="GET",route="/readyz",status_code="200"} 1');
    const unknown = await fetch(`${server.address}/nope`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: { code: 'not_found', message: expect.any(String) } }]);
  });

  it('a readiness check that throws is not ready, not a crash', async () => {
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry: new Registry(), readiness: () => Promise.reject(new Error('boom')) });
    const res = await fetch(`${server.address}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { message: 'Not ready: readiness' } });
  });
});
