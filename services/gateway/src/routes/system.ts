import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook } from '../auth/principal.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { RedisClient } from '../redis-client.ts';
import { databaseAnswers } from '../repositories/health.ts';

export interface SystemRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  redis: Pick<RedisClient, 'status'>;
  /** Whether Kafka is connected. */
  kafkaReady: () => boolean;
  metrics: Pick<GatewayMetrics, 'registry'>;
  now: () => number;
}

/** Health of spec 4.4 (authenticated), plus unauthenticated probes and metrics for operators. */
export function registerSystemRoutes(app: FastifyInstance, deps: SystemRouteDeps): void {
  app.get('/api/v1/health', { onRequest: principalHook(deps.auth) }, async (request, reply) => {
    const principal = request.principal!;
    if (principal.kind !== 'project') throw new PulseboardError('forbidden', { message: 'The health check takes a project API key' });
    return reply.send({ status: 'ok', project: principal.project.projectKey, timestamp: new Date(deps.now()).toISOString() });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks = { kafka: deps.kafkaReady(), redis: deps.redis.status === 'ready', postgres: await databaseAnswers(deps.pool) };
    const ready = Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
  });
  app.get('/metrics', async (_request, reply) => reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()));
}
