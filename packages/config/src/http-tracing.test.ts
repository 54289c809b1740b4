import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import { registerHttpTracing, requestTraceparent } from './http-tracing.ts';
import { NO_TRACING, formatTraceparent, type Tracing } from './tracing.ts';

// vitest resolves packages with the bundlers' `module` condition; the SDK's Node build loads by require.
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = createRequire(import.meta.url)(
  '@opentelemetry/sdk-trace-base',
) as typeof SdkTraceBase;

const caller = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;

async function app(tracing: Tracing) {
  const server = Fastify();
  registerHttpTracing(server, tracing);
  server.post('/ingest/:id', async (request) => ({ traceparent: requestTraceparent(request) ?? null }));
  await server.ready();
  return server;
}

describe('HTTP tracing', () => {
  it("off: no hook; the caller's well-formed traceparent is passed on as it came, anything else dropped", async () => {
    const server = await app(NO_TRACING);
    const ask = async (headers: Record<string, string>) => (await server.inject({ method: 'POST', url: '/ingest/1', headers })).json().traceparent;
    expect(await ask({ traceparent: caller })).toBe(caller);
    expect(await ask({ traceparent: 'not-a-trace' })).toBeNull();
    expect(await ask({})).toBeNull();
  });

  it("on: a server span per request, the caller's span its parent, named by route, with the status; what the request produces carries the span", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const server = await app({ enabled: true, tracer: provider.getTracer('test'), shutdown: () => provider.shutdown() });
    const given = (await server.inject({ method: 'POST', url: '/ingest/7', headers: { traceparent: caller } })).json().traceparent;
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('POST /ingest/:id');
    expect(span!.spanContext().traceId).toBe('ab'.repeat(16));
    expect(span!.parentSpanContext?.spanId).toBe('cd'.repeat(8));
    expect(span!.attributes['http.response.status_code']).toBe(200);
    expect(given).toBe(formatTraceparent(span!.spanContext()));
  });
});
