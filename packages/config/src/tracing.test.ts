import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import { NO_TRACING, formatTraceparent, parseTraceparent, traceBatch, type Tracing } from './tracing.ts';

// vitest resolves packages with the bundlers' `module` condition; the SDK's Node build loads by require.
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = createRequire(import.meta.url)(
  '@opentelemetry/sdk-trace-base',
) as typeof SdkTraceBase;

function memoryTracing(): { tracing: Tracing; exporter: InstanceType<typeof InMemorySpanExporter> } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracing: { enabled: true, tracer: provider.getTracer('test'), shutdown: () => provider.shutdown() } };
}

const tp = (trace: string, span: string) => `00-${trace.repeat(32).slice(0, 32)}-${span.repeat(16).slice(0, 16)}-01`;

describe('traceparent', () => {
  it('reads the W3C form and writes it back; refuses anything else', () => {
    const value = tp('a', 'b');
    expect(formatTraceparent(parseTraceparent(value)!)).toBe(value);
    for (const bad of ['', '01-' + value.slice(3), tp('0', 'b'), tp('a', '0'), value.toUpperCase(), `${value}-extra`])
      expect(parseTraceparent(bad), bad).toBeUndefined();
  });
});

describe('traceBatch', () => {
  it('off: no span, the work gets the first traceparent as it came', async () => {
    expect(await traceBatch(NO_TRACING, 'x', [undefined, tp('a', 'b'), tp('c', 'd')], {}, async (t) => t)).toBe(tp('a', 'b'));
    expect(await traceBatch(NO_TRACING, 'x', [undefined], {}, async (t) => t)).toBeUndefined();
  });

  it("on: the batch span is the child of the first traced message and links to the others' (once each); the work gets the span's own context", async () => {
    const { tracing, exporter } = memoryTracing();
    const given = await traceBatch(tracing, 'batch', [undefined, tp('a', '1'), tp('b', '2'), tp('a', '1'), 'garbage', tp('c', '3')], {}, async (t) => t);
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).toBe('a'.repeat(32));
    expect(span!.parentSpanContext?.spanId).toBe('1'.repeat(16));
    expect(span!.links.map((l) => l.context.traceId)).toEqual(['b'.repeat(32), 'c'.repeat(32)]);
    expect(given).toBe(formatTraceparent(span!.spanContext()));
    expect(span!.attributes['messaging.batch.message_count']).toBe(6);
  });

  it('on: a batch with no traced message starts a trace; a failed batch ends its span as an error and rethrows', async () => {
    const { tracing, exporter } = memoryTracing();
    await expect(traceBatch(tracing, 'batch', [undefined], {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const [span] = exporter.getFinishedSpans();
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.status.code).toBe(2);
  });
});
