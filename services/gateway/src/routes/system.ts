import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { isApiError, resolvePrincipal } from '../auth/principal.ts';
import { errors, sendError } from '../replies.ts';

/** Health of spec 4.4 (authenticated), plus unauthenticated probes and metrics for operators. */
export function registerSystemRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/api/v1/health', async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    if (principal.kind !== 'project') return sendError(reply, 'envelope', errors.forbidden('The health check takes a project API key'));
    return reply.send({ status: 'ok', project: principal.project.projectKey, timestamp: new Date(deps.now()).toISOString() });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks = {
      kafka: deps.kafkaReady(),
      redis: deps.redis.status === 'ready',
      postgres: await deps.pool.query('SELECT 1').then(() => true, () => false),
    };
    const ready = Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
  });
  app.get('/metrics', async (_request, reply) => reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()));
}
