import type * as real from '../../../packages/config/src/tracing.ts';

/**
 * packages/config/src/tracing.ts as a build without tracing would have it: the same exports, no
 * OpenTelemetry import, no traceparent read or passed on. bench:ingest's third gateway loads this
 * in its place (register.mjs) to measure what tracing-off costs against no tracing at all.
 * Type-only imports above are erased: nothing of @opentelemetry is loaded.
 */
export const tracingEnvProperties: typeof real.tracingEnvProperties = {
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
};
export type TracingEnv = real.TracingEnv;
export type Tracing = real.Tracing;
export const NO_TRACING: Tracing = { enabled: false, tracer: undefined as unknown as Tracing['tracer'], shutdown: async () => undefined };
export const TRACEPARENT = 'traceparent';
export const MAX_SPAN_LINKS = 128;
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as unknown as typeof real.SpanKind;
export const parseTraceparent: typeof real.parseTraceparent = () => undefined;
export const formatTraceparent: typeof real.formatTraceparent = () => '';
export const headerText: typeof real.headerText = () => undefined;
export const messageTraceparents: typeof real.messageTraceparents = () => [];
export const firstTraceparent: typeof real.firstTraceparent = () => undefined;
export const startTracing: typeof real.startTracing = async () => NO_TRACING;
export const traceBatch: typeof real.traceBatch = (_tracing, _name, _traceparents, _attributes, work) => work(undefined);
export const traceOne: typeof real.traceOne = (_tracing, _name, _traceparent, _kind, _attributes, work) => work(undefined, undefined);
