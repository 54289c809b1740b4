import type { FastifyInstance } from 'fastify';
import { MAX_BATCH_EVENTS, PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { senderHook } from '../auth/sender.ts';
import type { GatewayMetrics } from '../metrics.ts';
import { acceptEvents, type IntakeDeps } from '../ingest/accept.ts';
import { checksFor, type EnvelopeValidator } from '../ingest/envelope-validator.ts';
import type { IdempotencyStore } from '../ingest/idempotency.ts';
import { headerValue, withIdempotency, type Produced } from '../ingest/idempotent-request.ts';
import { rateLimitHeaders } from '../ingest/limit-replies.ts';
import type { RuleOutcomeWaiter, RuleOutcomeWatch } from '../ingest/rule-outcomes.ts';
import { webhookAccepted } from '../ingest/webhook-replies.ts';

export interface WebhookRouteDeps {
  auth: Pick<Authenticator, 'sender'>;
  intake: IntakeDeps;
  idempotency: IdempotencyStore;
  validator: EnvelopeValidator;
  metrics: Pick<GatewayMetrics, 'webhookBatchEvents'>;
  /** The rule engine's outcomes; absent until a rule engine exists (answers are then 202). */
  ruleOutcomes: RuleOutcomeWaiter | undefined;
  outcomeTimeoutMs: number;
}

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
 * carries the six rate-limit headers. A batch of more than 100 events can never
 * succeed: it is 400 before any limit is looked at (CONTRACT Limits), so no
 * client is told to wait and retry it. Errors use the envelope shape.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const idempotent = { idempotency: deps.idempotency, logger: deps.intake.logger };
  app.post(
    '/api/v1/webhooks',
    {
      config: { rejectionsEndpoint: 'webhooks' },
      // Authenticate, and check the header's project, before the body is even read.
      onRequest: senderHook(deps.auth, (request, project) => {
        const named = headerValue(request.headers['x-project-key']);
        return named !== undefined && named !== project.projectKey ? new PulseboardError('forbidden', { message: `X-Project-Key "${named}" is not the project of the API key` }) : undefined;
      }),
    },
    async (request, reply) => {
      const project = request.project!;
      const body = request.body;
      const batch = isBatch(body);
      const foreign = claimedProjectKeys(body, batch).find((c) => c.key !== project.projectKey);
      if (foreign !== undefined) throw new PulseboardError('forbidden', { message: `${foreign.where} "${foreign.key}" is not the project of the API key` });
      const events: unknown[] = batch ? ((body as { events?: unknown }).events as unknown[]) : [body];
      const checks = checksFor(deps.validator, request);
      const details = batch ? checks.webhookBatch(body) : checks.webhookEvent(body);
      if (Array.isArray(events) && events.length > MAX_BATCH_EVENTS) throw new PulseboardError('validation_error', { details: details ?? {} });

      return withIdempotency(idempotent, request, reply, { endpoint: 'webhooks', projectKey: project.projectKey }, async (attempt): Promise<Produced> => {
        let watch: RuleOutcomeWatch | undefined;
        let headers: Record<string, number> | undefined;
        const result = await acceptEvents(deps.intake, {
          endpoint: 'webhooks',
          project,
          apiKey: request.apiKey!,
          // A batch that is not an array counts as one request of one event; it is refused (400) after the limit check.
          events: Array.isArray(events) ? events : [body],
          details,
          batch,
          // Nobody waits when WEBHOOK_OUTCOME_TIMEOUT_MS is 0: the engine need not answer.
          outcomeWanted: deps.ruleOutcomes !== undefined,
          resume: attempt.resume,
          onDecided: (decided, decision) => {
            headers = rateLimitHeaders(decided, decision);
            reply.headers(headers);
          },
          beforePublish: (published) => {
            attempt.record?.(published);
            watch = deps.ruleOutcomes?.watch(project.projectKey, published.ids);
          },
        }).catch((error: unknown) => {
          watch?.cancel();
          throw error;
        });
        if (batch) deps.metrics.webhookBatchEvents.observe(result.ids.length);
        const outcomes = watch === undefined ? undefined : await watch.result(deps.outcomeTimeoutMs);
        return { ...webhookAccepted(result.ids, result.receivedAt, batch, outcomes), ...(headers === undefined ? {} : { headers }) };
      });
    },
  );
}
