import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, freePort, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from '../e2e/harness.ts';
import { definedMetrics, exposedSeries, shippedExpressions } from './monitoring.ts';
import { satisfies, selectors } from './promql.ts';
import { promtool } from './promtool.ts';

/**
 * Every service's port answers the probes (in the error envelope when it is not ready or
 * the path is unknown) and serves metrics that promtool accepts and that carry the
 * operator signals the dashboard and the alerts read.
 */
describe('operator signals of the five services (real processes)', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const ports: Record<string, string> = {};

  beforeAll(async () => {
    pipeline = await startPipeline();
    ports.gateway = pipeline.url;
    ports.broadcast = (await pipeline.startBroadcast()).url;
    const [store, engine, notification] = [await freePort(), await freePort(), await freePort()];
    await pipeline.startStore({ STORE_HTTP_PORT: String(store) });
    await pipeline.startRuleEngine({ RULE_ENGINE_HTTP_PORT: String(engine) });
    await pipeline.startNotification({ NOTIFICATION_HTTP_PORT: String(notification) });
    Object.assign(ports, { store: `http://127.0.0.1:${store}`, 'rule-engine': `http://127.0.0.1:${engine}`, notification: `http://127.0.0.1:${notification}` });
    const project = await pipeline.provision();
    for (let i = 0; i < 5; i++)
      expect((await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) })).status).toBe(201);
    expect((await request(`${pipeline.url}/api/v1/events`, { token: project.apiKey })).status).toBe(200);
  });
  afterAll(async () => {
    await pipeline?.stop();
  });

  const services = ['gateway', 'broadcast', 'store', 'rule-engine', 'notification'];

  it.each(services)('%s: /healthz, /readyz and unknown paths on its port', async (service) => {
    const base = ports[service]!;
    expect(await request(`${base}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await waitFor(
      async () => {
        const r = await request(`${base}/readyz`);
        return r.status === 200 ? r : undefined;
      },
      { what: `${service} ready`, timeoutMs: 45_000 },
    );
    expect(ready.body).toMatchObject({ status: 'ok', checks: expect.any(Object) });
    expect(Object.values(ready.body.checks).every((v) => v === true)).toBe(true);
    const unknown = await request(`${base}/no-such-path`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  const expected: Record<string, RegExp[]> = {
    gateway: [
      /^pulseboard_gateway_kafka_ack_seconds_bucket\{/m,
      /^pulseboard_http_request_duration_seconds_bucket\{.*route="\/ingest".*status_code="201"/m,
      /^pulseboard_http_request_duration_seconds_bucket\{.*route="\/api\/v1\/events"/m,
    ],
    broadcast: [
      /^pulseboard_broadcast_connections /m,
      /^pulseboard_broadcast_subscriptions /m,
      /^pulseboard_http_request_duration_seconds_bucket\{.*route="\/healthz"/m,
    ],
    store: [
      /^pulseboard_kafka_consumer_lag\{group="test-store-[^"]+",topic="[^"]+",partition="0"\} \d+/m,
      /^pulseboard_kafka_consumer_batch_messages_bucket\{/m,
      /^pulseboard_kafka_topic_end_offset\{/m,
      /^pulseboard_store_events_stored_total [1-9]/m,
    ],
    'rule-engine': [
      /^pulseboard_kafka_consumer_lag\{group="test-rule-engine-/m,
      /^pulseboard_rule_engine_relay_backlog\{source="history"\} \d+/m,
      /^pulseboard_rule_engine_relay_backlog\{source="outbox"\} \d+/m,
      /^pulseboard_rule_engine_events_evaluated_total [1-9]/m,
    ],
    notification: [
      /^pulseboard_kafka_consumer_lag\{group="test-notification-/m,
      /^pulseboard_notification_queue_deliveries\{state="due"\} \d+/m,
      /^pulseboard_kafka_topic_end_offset\{/m,
    ],
  };

  it.each(services)('%s: /metrics passes promtool check metrics and carries its signals', async (service) => {
    // Lag and batch series appear once the consumers have fetched: poll.
    const text = await waitFor(
      async () => {
        const body = await (await fetch(`${ports[service]}/metrics`)).text();
        return expected[service]!.every((pattern) => pattern.test(body)) ? body : undefined;
      },
      { what: `${service} metrics`, timeoutMs: 45_000 },
    ).catch(async (error: unknown) => {
      const body = await (await fetch(`${ports[service]}/metrics`)).text();
      throw new Error(`${String(error)}; missing: ${expected[service]!.filter((p) => !p.test(body)).join(' ')}`);
    });
    for (const common of [
      /^pulseboard_build_info\{service="[a-z-]+",version="[^"]+",node_version="v[\d.]+"\} 1$/m,
      /^pulseboard_db_pool_acquire_seconds_count \d+/m,
      /^pulseboard_db_pool_waiting_requests \d+/m,
    ])
      expect(text).toMatch(common);
    const checked = await promtool(['check', 'metrics'], text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('each service serves the metrics its source defines, and every metric of the dashboard and the alerts is served by a service their job matchers select', async () => {
    const served = new Map<string, Set<string>>();
    for (const service of services) {
      const text = await (await fetch(`${ports[service]}/metrics`)).text();
      const names = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name!],
      );
      served.set(service, new Set(names));
    }
    // What the chart test reads from the source (services/<service>/src) is what each running service serves.
    const own = definedMetrics().filter((d) => d.service !== undefined);
    expect(own.length).toBeGreaterThan(20);
    for (const d of own) for (const { series } of exposedSeries(d)) expect(served.get(d.service!)!.has(series), `${d.service} serves ${series}`).toBe(true);
    // Jobs here are the services' names, as on Kubernetes (the ServiceMonitor's jobLabel).
    for (const { where, expr } of shippedExpressions()) {
      for (const selector of selectors(expr)) {
        if (selector.metric === 'up') continue;
        const jobs = services.filter((job) => selector.matchers.filter((m) => m.label === 'job').every((m) => satisfies(m, job)));
        expect(
          jobs.some((job) => served.get(job)!.has(selector.metric!)),
          `${where}: ${selector.metric} on ${jobs.join(', ')}`,
        ).toBe(true);
      }
    }
  });
});
