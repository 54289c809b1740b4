import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, request, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  links: { traceId: string; spanId: string }[];
}

/** OTLP/JSON ids are hex; protobuf-JSON mappings write base64: either is read as hex. */
const hex = (id: string | undefined): string =>
  id === undefined || id === '' ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

/** A tiny OTLP/HTTP receiver: decodes the JSON export requests (POST /v1/traces) into spans. */
async function otlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue ?? '';
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              service,
              name: s.name,
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('tracing: one event followed through the five services (OTLP to an in-process receiver)', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;

  // The compiled services as real processes, as deployed (vitest's workers resolve packages with the bundlers' `module`
  // condition, under which OpenTelemetry's Node builds do not load).
  beforeAll(async () => {
    receiver = await otlpReceiver();
    pipeline = await startPipeline({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, WEBHOOK_OUTCOME_TIMEOUT_MS: '0', STORE_HTTP_PORT: '0' }, { compiled: true });
    await Promise.all([pipeline.startStore(), pipeline.startRuleEngine(), pipeline.startBroadcast(), pipeline.startNotification()]);
  }, 120_000);
  afterAll(async () => {
    await pipeline?.stop();
    await receiver?.close();
  });

  it("the caller's trace goes on through gateway → store and rule engine → broadcast and notification, each span the child of the stage before", async () => {
    const project = await pipeline.provision();
    const url = pipeline.url;
    const tile = await request(`${url}/api/v1/tiles`, {
      token: project.apiKey,
      body: {
        name: 'CPU',
        kind: 'metric',
        rule: { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
      },
    });
    expect(tile.status, JSON.stringify(tile.body)).toBe(201);

    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await request(`${url}/ingest`, {
      token: project.apiKey,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      body: envelope(project.projectKey, { type: 'metric', name: 'cpu', timestamp: new Date().toISOString(), attributes: { value: 99 } }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const stage = (service: string) => receiver.spans.find((s) => s.traceId === traceId && s.service === `pulseboard-${service}`);
    await waitFor(() => ['gateway', 'store', 'rule-engine', 'broadcast', 'notification'].every((s) => stage(s) !== undefined), {
      timeoutMs: 20_000,
      what: 'a span of every service in the trace',
    });
    const [gateway, store, engine, broadcast, notification] = (['gateway', 'store', 'rule-engine', 'broadcast', 'notification'] as const).map((s) => stage(s)!);
    expect(gateway!.name).toBe('POST /ingest');
    expect(gateway!.parentSpanId).toBe(callerSpan);
    expect(store!.parentSpanId).toBe(gateway!.spanId);
    expect(engine!.parentSpanId).toBe(gateway!.spanId);
    // The change the engine made carries its span on through the history relay.
    expect(broadcast!.parentSpanId).toBe(engine!.spanId);
    expect(notification!.parentSpanId).toBe(engine!.spanId);
    expect(new Set([gateway, store, engine, broadcast, notification].map((s) => s!.spanId)).size).toBe(5);
  });
});
