import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent, type Tracing } from './tracing.ts';

const SPAN = Symbol('pulseboard.span');
type Traced = FastifyRequest & { [SPAN]?: Span };

function headerOne(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A server span per request, continuing the caller's `traceparent` (or a new trace). Nothing is
 * registered while tracing is off: requests pay no hook.
 */
export function registerHttpTracing(app: FastifyInstance, tracing: Tracing): void {
  if (!tracing.enabled) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = parseTraceparent(headerOne(request.headers.traceparent));
    const route = request.routeOptions.url ?? 'unmatched';
    (request as Traced)[SPAN] = tracing.tracer.startSpan(
      `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route } },
      parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent),
    );
    done();
  });
  const end = (request: FastifyRequest, status: number | undefined): void => {
    const span = (request as Traced)[SPAN];
    if (span === undefined) return;
    (request as Traced)[SPAN] = undefined;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}

/**
 * The `traceparent` what a request produces carries: its server span's, or with tracing off the
 * caller's own header when well-formed (passed on, so a traced consumer still joins the trace).
 */
export function requestTraceparent(request: FastifyRequest): string | undefined {
  const span = (request as Traced)[SPAN];
  if (span !== undefined) return formatTraceparent(span.spanContext());
  const header = headerOne(request.headers.traceparent);
  return header !== undefined && parseTraceparent(header) !== undefined ? header : undefined;
}
