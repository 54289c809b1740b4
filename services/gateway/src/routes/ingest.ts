import type { FastifyInstance } from 'fastify';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { senderHook } from '../auth/sender.ts';
import { acceptEvents, type IntakeDeps } from '../ingest/accept.ts';
import { checksFor, type EnvelopeValidator } from '../ingest/envelope-validator.ts';
import type { IdempotencyStore } from '../ingest/idempotency.ts';
import { withIdempotency } from '../ingest/idempotent-request.ts';

export interface IngestRouteDeps {
  auth: Pick<Authenticator, 'sender'>;
  intake: IntakeDeps;
  idempotency: IdempotencyStore;
  validator: EnvelopeValidator;
}

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
export function registerIngestRoute(app: FastifyInstance, deps: IngestRouteDeps): void {
  const idempotent = { idempotency: deps.idempotency, logger: deps.intake.logger };
  app.post(
    '/ingest',
    {
      config: { errorShape: 'ingest', rejectionsEndpoint: 'ingest' },
      schema: { response: { 201: ingestAcceptedSchema } },
      onRequest: senderHook(deps.auth),
    },
    async (request, reply) => {
      const project = request.project!;
      const body = request.body;
      const claimedKey = (body as { project_key?: unknown } | null)?.project_key;
      if (typeof claimedKey === 'string' && claimedKey !== project.projectKey) {
        throw new PulseboardError('forbidden', { message: `project_key "${claimedKey}" differs from the project of the API key` });
      }
      return withIdempotency(idempotent, request, reply, { endpoint: 'ingest', projectKey: project.projectKey }, async (attempt) => {
        const result = await acceptEvents(deps.intake, {
          endpoint: 'ingest',
          project,
          apiKey: request.apiKey!,
          events: [body],
          details: checksFor(deps.validator, request).envelope(body),
          resume: attempt.resume,
          beforePublish: attempt.record,
        });
        return {
          status: 201,
          body: {
            status: 'accepted',
            event_id: result.ids[0]!,
            message: 'Event accepted for processing',
            quota_used: result.decision.usage.month,
            quota_limit: result.project.limits.monthlyQuota,
            rate_limit_remaining: Math.max(0, result.project.limits.burst - result.decision.usage.minute),
          },
        };
      });
    },
  );
}
