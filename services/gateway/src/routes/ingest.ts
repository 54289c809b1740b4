import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import { countedFailure, errors } from '../replies.ts';
import { senderAuthHook } from '../ingest/authenticate.ts';
import { acceptEvents } from '../ingest/accept.ts';
import { withIdempotency } from '../ingest/idempotent-request.ts';
import { checksFor } from '../ingest/envelope-validator.ts';

// A response schema lets fastify serialise the 201 with a compiled stringifier.
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

/**
 * POST /ingest (spec 4.1). Order: authenticate (before the body is read),
 * project match (403), rate limits (429), quota (402), validation (400); then
 * the event gets its id and is answered 201 only after Kafka acknowledged it.
 * Errors use the ingest shape `{status:"error", code, message, ...}`.
 */
export function registerIngestRoute(app: FastifyInstance, deps: GatewayDeps): void {
  const fail = countedFailure(deps.metrics.requestsRejected, 'ingest', 'ingest');

  app.post(
    '/ingest',
    {
      config: { errorShape: 'ingest' },
      schema: { response: { 201: ingestAcceptedSchema } },
      onRequest: senderAuthHook(deps, fail),
    },
    async (request, reply) => {
      const project = request.project!;
      const body = request.body;
      const claimedKey = (body as { project_key?: unknown } | null)?.project_key;
      if (typeof claimedKey === 'string' && claimedKey !== project.projectKey) {
        return fail(reply, errors.forbidden(`project_key "${claimedKey}" differs from the project of the API key`));
      }
      return withIdempotency(deps, request, reply, { endpoint: 'ingest', projectKey: project.projectKey, fail }, async () => {
        const result = await acceptEvents(deps, {
          endpoint: 'ingest',
          project,
          apiKey: request.apiKey!,
          events: [body],
          details: checksFor(deps.validator, request).envelope(body),
        });
        if (!result.ok) return { error: result.error };
        const { decision } = result;
        return {
          status: 201,
          body: {
            status: 'accepted',
            event_id: result.ids[0]!,
            message: 'Event accepted for processing',
            quota_used: decision.usage.month,
            quota_limit: result.project.limits.monthlyQuota,
            rate_limit_remaining: Math.max(0, result.project.limits.burst - decision.usage.minute),
          },
        };
      });
    },
  );
}
