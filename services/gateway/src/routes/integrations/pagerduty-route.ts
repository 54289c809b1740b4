import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mapPagerDuty, pagerDutyAcceptedSchema, pagerDutyEventSchema } from '@pulseboard/contracts';
import type { Authenticator } from '../../auth/authenticator.ts';
import { senderHook } from '../../auth/sender.ts';
import { sendMapped, type MappedIntakeDeps } from './send-mapped.ts';
import { acceptedAs } from './responses.ts';
import { SECURITY } from '../../openapi/route-docs.ts';

/** The routing key is the project's API key; without one, an Authorization header still works. */
function routingKeyAuthorization(request: FastifyRequest): string | undefined {
  const key = (request.body as { routing_key?: unknown } | null | undefined)?.routing_key;
  return typeof key === 'string' && key !== '' ? `Bearer ${key}` : request.headers.authorization;
}

/**
 * POST /api/v1/integrations/pagerduty/v2/enqueue: PagerDuty's Events API v2,
 * so any tool that can send to PagerDuty can send here by changing the URL and
 * putting the project's API key as its routing (integration) key. Answers
 * PagerDuty's 202 `{status: "success", message, dedup_key}`.
 */
export function registerPagerDutyRoute(app: FastifyInstance, deps: MappedIntakeDeps & { auth: Pick<Authenticator, 'sender'>; now: () => number }): void {
  app.post(
    '/api/v1/integrations/pagerduty/v2/enqueue',
    {
      config: { rejectionsEndpoint: 'pagerduty' },
      schema: {
        tags: ['ingest'],
        summary: "PagerDuty Events API v2, as events (the routing_key in the body is the project's API key)",
        security: SECURITY.none,
        body: { $ref: pagerDutyEventSchema.$id },
        response: acceptedAs(pagerDutyAcceptedSchema, "PagerDuty's success answer, or nothing to record (`ignored`)"),
      },
      // The key is in the body: authenticate once it is read, before it is validated.
      preValidation: senderHook(deps.auth, undefined, routingKeyAuthorization),
    },
    async (request, reply) => {
      const result = mapPagerDuty(request.body, { receivedAt: new Date(deps.now()), newDedupKey: randomUUID().replaceAll('-', '') });
      return sendMapped(deps, request, reply, {
        endpoint: 'pagerduty',
        tool: 'PagerDuty Events API v2',
        project: request.project!,
        apiKey: request.apiKey,
        result,
        answer: () => ({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: result.dedupKey } }),
      });
    },
  );
}
