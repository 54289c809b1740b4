import { requestTraceparent } from '@pulseboard/config';
import type { FastifyInstance } from 'fastify';
import { eventEnvelopeSchema, ingestAcceptedSchema, PulseboardError } from '@pulseboard/contracts';
import { body, errors, IDEMPOTENCY_HEADERS, REPLAYED_HEADER, SECURITY } from '../openapi/route-docs.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { senderHook } from '../auth/sender.ts';
import { acceptEvents, type IntakeDeps } from '../ingest/accept.ts';
import type { EnvelopeValidator } from '../ingest/envelope-validator.ts';
import type { IdempotencyStore } from '../ingest/idempotency.ts';
import { withIdempotency } from '../ingest/idempotent-request.ts';

export interface IngestRouteDeps {
  auth: Pick<Authenticator, 'sender'>;
  intake: IntakeDeps;
  idempotency: IdempotencyStore;
  validator: EnvelopeValidator;
}

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
      // The body is checked by the handler, after the limits (order of spec 4.1), so it is documented, not given to ajv.
      config: { errorShape: 'ingest', rejectionsEndpoint: 'ingest', openapi: { body: { $ref: eventEnvelopeSchema.$id }, headers: IDEMPOTENCY_HEADERS } },
      schema: {
        tags: ['ingest'],
        summary: 'Send one event',
        description:
          'Answered 201 only after Kafka acknowledged the event. Order of checks: credential, project, rate limits (429), quota (402), validation (400).',
        security: SECURITY.projectKey,
        response: {
          201: { ...body(ingestAcceptedSchema, 'Stored (acknowledged by Kafka)'), headers: REPLAYED_HEADER },
          ...errors('ingest', [400, 401, 402, 403, 404, 409, 413, 415, 422, 429, 503], REPLAYED_HEADER),
        },
      },
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
          details: deps.validator.envelope(body),
          resume: attempt.resume,
          beforePublish: attempt.record,
          traceparent: requestTraceparent(request),
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
