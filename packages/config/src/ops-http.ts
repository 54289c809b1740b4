import Fastify, { type FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';
import { ERROR_CATALOG } from '@pulseboard/contracts';

/** Named checks of "can this instance do its work now"; all true means ready. */
export type Readiness = () => Record<string, boolean> | Promise<Record<string, boolean>>;

// From 1 ms (a cached read, an ingest) to 10 s (a webhook waiting for its outcome).
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `pulseboard_http_request_duration_seconds{method, route, status_code}`: every answer, by its route's
 * pattern (`/api/v1/events/:id`, never the raw URL) or `unmatched`, so the label set stays small.
 */
export function registerHttpMetrics(app: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: 'pulseboard_http_request_duration_seconds',
    help: 'HTTP requests from arrival to the answer sent, by route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The probes and metrics every service answers on its port: `/healthz` (liveness: the event
 * loop answers; never a dependency check, so a dependency's outage restarts nothing),
 * `/readyz` (the instance can do its work: 503 in the error envelope, naming the checks that
 * fail; `reportOnly` checks are shown, never required) and `/metrics`.
 */
export function registerOpsRoutes(app: FastifyInstance, options: { registry: Registry; readiness: Readiness; reportOnly?: string[] }): void {
  const reportOnly = new Set(options.reportOnly ?? []);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    let checks: Record<string, boolean>;
    try {
      checks = await options.readiness();
    } catch {
      checks = { readiness: false };
    }
    const failing = Object.keys(checks).filter((name) => !checks[name] && !reportOnly.has(name));
    if (failing.length === 0) return reply.send({ status: 'ok', checks });
    const entry = ERROR_CATALOG.service_unavailable;
    return reply
      .code(entry.status)
      .header('retry-after', entry.retryAfterSeconds)
      .send({
        error: {
          code: 'service_unavailable',
          message: `Not ready: ${failing.join(', ')}`,
          details: Object.fromEntries(failing.map((name) => [name, ['is not ready']])),
        },
      });
  });
  app.get('/metrics', async (_request, reply) => reply.type(options.registry.contentType).send(await options.registry.metrics()));
}

/** Unknown routes and unexpected failures in the error envelope `{error:{code, message}}`, not fastify's own shape. */
export function registerEnvelopeErrors(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: { code: 'not_found', message: ERROR_CATALOG.not_found.message } }));
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) return reply.code(500).send({ error: { code: 'internal_error', message: ERROR_CATALOG.internal_error.message } });
    return reply.code(status).send({ error: { code: 'bad_request', message: error.message ?? ERROR_CATALOG.bad_request.message } });
  });
}

export interface OpsServer {
  /** `http://host:port` it listens on. */
  address: string;
  close(): Promise<void>;
}

/** A service's own port for probes and metrics (the consumers: store, rule engine, notification). */
export async function startOpsServer(options: { port: number; host: string; registry: Registry; readiness: Readiness }): Promise<OpsServer> {
  const app = Fastify({ logger: false });
  registerEnvelopeErrors(app);
  registerHttpMetrics(app, options.registry);
  registerOpsRoutes(app, options);
  await app.listen({ port: options.port, host: options.host });
  const { port } = app.server.address() as { port: number };
  return { address: `http://${options.host}:${port}`, close: () => app.close() };
}
