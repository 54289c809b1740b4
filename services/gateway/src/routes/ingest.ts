import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventEnvelope } from '@pulseboard/contracts';
import type { GatewayDeps } from '../deps.ts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import { bearerToken } from '../auth/credentials.ts';
import { errors, sendError, type ApiError } from '../replies.ts';
import { admit } from '../ingest/admission.ts';
import { limitError } from '../ingest/limit-replies.ts';

const ingestAcceptedSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    event_id: { type: 'integer' },
    message: { type: 'string' },
    quota_used: { type: 'integer' },
    quota_limit: { type: 'integer' },
    rate_limit_remaining: { type: 'integer' },
  },
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    project?: ProjectAuth;
    apiKey?: string;
  }
}

/**
 * POST /ingest (spec 4.1). Order: authenticate, project match, rate limits
 * (429), quota (402), validation (400); then the event gets its id and is
 * answered 201 only after Kafka acknowledged it.
 */
export function registerIngestRoute(app: FastifyInstance, deps: GatewayDeps): void {
  const fail = (reply: FastifyReply, error: ApiError) => {
    deps.metrics.requestsRejected.inc({ endpoint: 'ingest', reason: error.code });
    return sendError(reply, 'ingest', error);
  };

  app.post(
    '/ingest',
    {
      config: { errorShape: 'ingest' },
      schema: { response: { 201: ingestAcceptedSchema } },
      // Authenticate before the body is even read.
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        const apiKey = bearerToken(request.headers.authorization);
        if (apiKey === undefined) return fail(reply, errors.authenticationRequired());
        const project = await deps.directory.byApiKey(apiKey);
        if (project === undefined) return fail(reply, errors.invalidApiKey());
        if (project.deleted) return fail(reply, errors.projectNotFound());
        request.project = project;
        request.apiKey = apiKey;
      },
    },
    async (request, reply) => {
      const cached = request.project!;
      const body = request.body;
      const claimedKey = (body as { project_key?: unknown } | null)?.project_key;
      if (typeof claimedKey === 'string' && claimedKey !== cached.projectKey) {
        return fail(reply, errors.forbidden(`project_key "${claimedKey}" differs from the project of the API key`));
      }
      const idempotency = await deps.idempotency.claim(cached.projectKey, 'ingest', headerValue(request.headers['idempotency-key']), body);
      if (idempotency.kind === 'refused') return fail(reply, idempotency.error);
      if (idempotency.kind === 'replay') return reply.code(idempotency.response.status as 201).header('idempotent-replayed', 'true').send(idempotency.response.body);

      let consumed: { project: ProjectAuth; windows: import('../limits/windows.ts').Windows } | undefined;
      try {
        const details = deps.validator.envelope(body);
        const admission = await admit(deps, cached, { apiKey: request.apiKey!, events: 1, consume: details === null });
        if (!admission.ok) return await failAndRelease(admission.error);
        const { project, decision } = admission;
        if (decision.kind !== 'allowed') return await failAndRelease(limitError(decision));
        if (details !== null) return await failAndRelease(errors.validation(details));
        consumed = { project, windows: decision.windows };

        const started = performance.now();
        const [eventId] = await deps.pipeline.publish(project, [body as EventEnvelope], new Date(deps.now()));
        deps.metrics.kafkaAckMs.observe(performance.now() - started);
        deps.metrics.eventsAccepted.inc({ endpoint: 'ingest' });
        const response = {
          status: 'accepted',
          event_id: eventId!,
          message: 'Event accepted for processing',
          quota_used: decision.usage.month,
          quota_limit: project.limits.monthlyQuota,
          rate_limit_remaining: Math.max(0, project.limits.burst - decision.usage.minute),
        };
        if (idempotency.kind === 'claimed') await idempotency.complete({ status: 201, body: response });
        return reply.code(201).send(response);
      } catch (error) {
        // Nothing was accepted: give back what the limiter took and free the idempotency key.
        if (consumed !== undefined) await deps.limiter.refund(consumed.project, 1, consumed.windows).catch(() => undefined);
        if (idempotency.kind === 'claimed') await idempotency.release().catch(() => undefined);
        throw error;
      }

      async function failAndRelease(error: ApiError) {
        if (idempotency.kind === 'claimed') await idempotency.release();
        return fail(reply, error);
      }
    },
  );
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
