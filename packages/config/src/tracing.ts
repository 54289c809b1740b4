import { createRequire } from 'node:module';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';

/**
 * Tracing settings every service reads. Empty endpoint: no SDK is loaded or started and the
 * helpers below only pass an incoming `traceparent` on (a few string reads per batch).
 */
export const tracingEnvProperties = {
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    type: 'string',
    default: '',
    pattern: '^$|^https?://',
    description: 'OTLP/HTTP (JSON) base URL of a trace collector, e.g. http://otel-collector:4318; spans go to <endpoint>/v1/traces. Empty: tracing off.',
  },
  OTEL_EXPORTER_OTLP_HEADERS: { type: 'string', default: '', description: "Extra headers of the trace export (a collector's token), `key=value,key2=value2`." },
  OTEL_TRACES_SAMPLER_ARG: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 1,
    description: "Share of new traces recorded, 0 to 1 (a trace begun upstream follows its parent's decision).",
  },
} as const;

export interface TracingEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT: string;
  OTEL_EXPORTER_OTLP_HEADERS: string;
  OTEL_TRACES_SAMPLER_ARG: number;
}

export interface Tracing {
  readonly enabled: boolean;
  /** The service's tracer; never used while disabled (the helpers take the pass-through path). */
  readonly tracer: Tracer;
  /** Exports what is buffered and stops; bounded by the exporter's own timeout. */
  shutdown(): Promise<void>;
}

/** Tracing off: no SDK, nothing recorded. */
export const NO_TRACING: Tracing = { enabled: false, tracer: trace.getTracer('pulseboard-disabled'), shutdown: async () => undefined };

/** The W3C header name (trace-context level 1): on HTTP requests and on Kafka messages. */
export const TRACEPARENT = 'traceparent';

const TRACEPARENT_FORM = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a well-formed `traceparent` names; undefined for anything else (an all-zero id included). */
export function parseTraceparent(value: string | undefined): SpanContext | undefined {
  if (value === undefined) return undefined;
  const m = TRACEPARENT_FORM.exec(value);
  if (m === null || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-0${context.traceFlags & TraceFlags.SAMPLED}`;
}

/** A header value as kafkajs gives it (Buffer, string, an array of them, or absent), as text. */
export function headerText(value: Buffer | string | (Buffer | string)[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? undefined : one.toString();
}

type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;

/** The `traceparent` of each consumed message (kafka-kit's ConsumedMessage, structurally). */
export function messageTraceparents(messages: readonly { raw: { headers?: Record<string, HeaderValue> | undefined } }[]): (string | undefined)[] {
  return messages.map((m) => headerText(m.raw.headers?.[TRACEPARENT]));
}

/** With tracing off, the first message's `traceparent`, passed on as it came (no parsing, no span). */
export function firstTraceparent(messages: readonly { raw: { headers?: Record<string, HeaderValue> | undefined } }[]): string | undefined {
  for (const m of messages) {
    const value = m.raw.headers?.[TRACEPARENT];
    if (value !== undefined) return headerText(value);
  }
  return undefined;
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/**
 * Starts the OpenTelemetry SDK for one service when an endpoint is set. Not the global provider:
 * tests and benches run several services in one process, each with its own `service.name`.
 */
export async function startTracing(service: string, env: TracingEnv): Promise<Tracing> {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === '') return NO_TRACING;
  // Loaded only when used: a service with tracing off never loads the SDK. By require: the packages'
  // CommonJS builds load under Node, tsx and vitest alike (their `module` builds are for bundlers).
  const require = createRequire(import.meta.url);
  const { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const exporter = new OTLPTraceExporter({
    url: `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`,
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `pulseboard-${service}` }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(env.OTEL_TRACES_SAMPLER_ARG) }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  return { enabled: true, tracer: provider.getTracer(`pulseboard-${service}`), shutdown: () => provider.shutdown() };
}

/** A span's end with its outcome: an error marks it failed. */
function ended<R>(span: Span, work: Promise<R>): Promise<R> {
  return work.then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    },
  );
}

/** At most this many links on a batch span (an exporter and a UI handle a few hundred well). */
export const MAX_SPAN_LINKS = 128;

/**
 * One span for a batch of messages. Services work in batches, so a batch span cannot be the child
 * of every event's trace: it is the child of the first traced message's context (a lone event's
 * trace stays one tree end to end) and links to every other distinct one (each of those traces
 * reaches it through its link). `work` is given the `traceparent` to put on what the batch
 * produces. Disabled: no span; `work` gets the first message's `traceparent` as it came.
 */
export function traceBatch<R>(
  tracing: Tracing,
  name: string,
  traceparents: readonly (string | undefined)[],
  attributes: Attributes,
  work: (traceparent: string | undefined) => Promise<R>,
): Promise<R> {
  if (!tracing.enabled) {
    for (const t of traceparents) if (t !== undefined) return work(t);
    return work(undefined);
  }
  let parent: SpanContext | undefined;
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const t of traceparents) {
    if (t === undefined || seen.has(t)) continue;
    seen.add(t);
    const context = parseTraceparent(t);
    if (context === undefined) continue;
    if (parent === undefined) parent = context;
    else if (links.length < MAX_SPAN_LINKS) links.push({ context });
  }
  const span = tracing.tracer.startSpan(
    name,
    { kind: SpanKind.CONSUMER, links, attributes: { 'messaging.system': 'kafka', 'messaging.batch.message_count': traceparents.length, ...attributes } },
    parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent),
  );
  return ended(
    span,
    Promise.resolve().then(() => work(formatTraceparent(span.spanContext()))),
  );
}

/**
 * A consumer's batch span (kafka-kit's `trace` option: the tracing middleware), named `name` with
 * `attributes` besides those the consumer adds. Disabled: no span; `work` gets the first message's
 * `traceparent` as it came, without reading the others'.
 */
export function batchSpan(tracing: Tracing, name: string, attributes: Attributes = {}) {
  return <R>(
    messages: readonly { raw: { headers?: Record<string, HeaderValue> | undefined } }[],
    extra: Record<string, string>,
    work: (traceparent: string | undefined) => Promise<R>,
  ): Promise<R> =>
    tracing.enabled ? traceBatch(tracing, name, messageTraceparents(messages), { ...attributes, ...extra }, work) : work(firstTraceparent(messages));
}

/** A span of kind `kind` under `traceparent` (or a new trace); `work` gets the span's own `traceparent`. */
export function traceOne<R>(
  tracing: Tracing,
  name: string,
  traceparent: string | undefined,
  kind: SpanKind,
  attributes: Attributes,
  work: (traceparent: string | undefined, span: Span | undefined) => Promise<R>,
): Promise<R> {
  if (!tracing.enabled) return work(traceparent, undefined);
  const parent = parseTraceparent(traceparent);
  const span = tracing.tracer.startSpan(name, { kind, attributes }, parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent));
  return ended(
    span,
    Promise.resolve().then(() => work(formatTraceparent(span.spanContext()), span)),
  );
}

export { SpanKind };
