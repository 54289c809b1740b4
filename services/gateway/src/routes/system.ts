import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import { registerOpsRoutes } from '@pulseboard/config';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook } from '../auth/principal.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { RedisClient } from '../redis-client.ts';
import { databaseAnswers } from '../repositories/health.ts';
import { AUTHENTICATED, errors, SECURITY } from '../openapi/route-docs.ts';

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
  const healthDoc = {
    tags: ['system'],
    summary: 'Whether the gateway answers, for a project key (spec 4.4)',
    security: SECURITY.projectKey,
    response: {
      200: {
        description: 'Up',
        type: 'object',
        additionalProperties: false,
        required: ['status', 'project', 'timestamp'],
        properties: { status: { const: 'ok' }, project: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } },
      },
      ...errors('envelope', [403, 404, ...AUTHENTICATED]),
    },
  };
  app.get('/api/v1/health', { onRequest: principalHook(deps.auth), schema: healthDoc }, async (request, reply) => {
    const principal = request.principal!;
    if (principal.kind !== 'project') throw new PulseboardError('forbidden', { message: 'The health check takes a project API key' });
    return reply.send({ status: 'ok', project: principal.project.projectKey, timestamp: new Date(deps.now()).toISOString() });
  });

  // Ready is what ingest needs: the producer connected and the limiter (Redis) reachable. Postgres
  // is reported, not required: ingest goes on from the event id reserve through a Postgres outage
  // (the read API answers 503 meanwhile), and a gateway taken out of rotation for it would refuse
  // ingest that it can serve.
  registerOpsRoutes(app, {
    registry: deps.metrics.registry,
    readiness: async () => ({ kafka: deps.kafkaReady(), redis: deps.redis.status === 'ready', postgres: await databaseAnswers(deps.pool) }),
    reportOnly: ['postgres'],
  });
}
