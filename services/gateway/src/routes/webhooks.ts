import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BATCH_EVENTS } from '@pulseboard/contracts';
import type { GatewayDeps } from '../deps.ts';
import { countedFailure, errors } from '../replies.ts';
import { senderAuthHook } from '../ingest/authenticate.ts';
import { checksFor } from '../ingest/envelope-validator.ts';
import { acceptEvents } from '../ingest/accept.ts';
import { headerValue, withIdempotency, type Produced } from '../ingest/idempotent-request.ts';
import { rateLimitHeaders } from '../ingest/limit-replies.ts';
import { webhookAccepted } from '../ingest/webhook-replies.ts';
import type { RuleOutcomeWatch } from '../ingest/rule-outcomes.ts';

/** The project keys a webhooks body names: its own `project_key` and, in a batch, each event's. */
function claimedProjectKeys(body: unknown, batch: boolean): { where: string; key: string }[] {
  if (typeof body !== 'object' || body === null) return [];
  const claims: { where: string; key: string }[] = [];
  const top = (body as { project_key?: unknown }).project_key;
  if (typeof top === 'string') claims.push({ where: 'project_key', key: top });
  const events = (body as { events?: unknown }).events;
  if (batch && Array.isArray(events)) {
    events.forEach((event, i) => {
      const key = (event as { project_key?: unknown } | null)?.project_key;
      if (typeof key === 'string') claims.push({ where: `events[${i}].project_key`, key });
    });
  }
  return claims;
}

function isBatch(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'events');
}

/**
 * POST /api/v1/webhooks (spec 4.2): one event, or `{"events": [...]}` of up to
 * 100, validated all or nothing. The project comes from `X-Project-Key` or the
 * body's `project_key`, and the `Authorization: Bearer` API key is required
 * (spec 5.1: a key on every request that sends events) and must belong to that
 * project (403 otherwise). Each event counts against burst and quota, the
 * request once against the hourly limits; every answer after the limit check
 * carries the six rate-limit headers. Errors use the envelope shape.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const fail = countedFailure(deps.metrics.requestsRejected, 'webhooks', 'envelope');

  app.post(
    '/api/v1/webhooks',
    {
      // Authenticate, and check the header's project, before the body is even read.
      onRequest: senderAuthHook(deps, fail, (request, project) => {
        const named = headerValue(request.headers['x-project-key']);
        return named !== undefined && named !== project.projectKey ? errors.forbidden(`X-Project-Key "${named}" is not the project of the API key`) : undefined;
      }),
    },
    async (request, reply) => {
      const project = request.project!;
      const body = request.body;
      const batch = isBatch(body);
      const foreign = claimedProjectKeys(body, batch).find((c) => c.key !== project.projectKey);
      if (foreign !== undefined) {
        return fail(reply, errors.forbidden(`${foreign.where} "${foreign.key}" is not the project of the API key`));
      }
      return withIdempotency(deps, request, reply, { endpoint: 'webhooks', projectKey: project.projectKey, fail }, async (): Promise<Produced> => {
        const events: unknown[] = batch ? ((body as { events?: unknown }).events as unknown[]) : [body];
        const checks = checksFor(deps.validator, request);
        const details = batch ? checks.webhookBatch(body) : checks.webhookEvent(body);
        let watch: RuleOutcomeWatch | undefined;
        const result = await acceptEvents(deps, {
          endpoint: 'webhooks',
          project,
          apiKey: request.apiKey!,
          // A malformed batch is answered 400 after the limit check; it is checked as the events it
          // could at most hold, so a 150-event batch is told it is too large rather than to wait.
          events: Array.isArray(events) ? events.slice(0, MAX_BATCH_EVENTS) : [body],
          details,
          beforePublish: (ids) => {
            watch = deps.ruleOutcomes?.watch(project.projectKey, ids);
          },
        }).catch((error: unknown) => {
          watch?.cancel();
          throw error;
        });
        if (!result.ok) {
          const headers = result.decision === undefined ? undefined : rateLimitHeaders(result.project!, result.decision);
          return headers === undefined ? { error: result.error } : { error: result.error, headers };
        }
        if (batch) deps.metrics.webhookBatchEvents.observe(result.ids.length);
        const outcomes = watch === undefined ? undefined : await watch.result(deps.env.WEBHOOK_OUTCOME_TIMEOUT_MS);
        const response = webhookAccepted(result.ids, result.receivedAt, batch, outcomes);
        return { ...response, headers: rateLimitHeaders(result.project, result.decision) };
      });
    },
  );
}
