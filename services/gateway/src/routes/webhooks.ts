import type { FastifyInstance } from 'fastify';
import {
  MAX_BATCH_EVENTS,
  PulseboardError,
  webhookAcceptedSchema,
  webhookBatchAcceptedSchema,
  webhookBatchResultSchema,
  webhookBatchSchema,
  webhookEventSchema,
  webhookResultSchema,
} from '@pulseboard/contracts';
import { errors, IDEMPOTENCY_HEADERS, RATE_LIMIT_HEADERS, REPLAYED_HEADER, SECURITY } from '../openapi/route-docs.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { senderHook } from '../auth/sender.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { IntakeDeps } from '../ingest/accept.ts';
import type { EnvelopeValidator } from '../ingest/envelope-validator.ts';
import type { IdempotencyStore } from '../ingest/idempotency.ts';
import { headerValue } from '../ingest/idempotent-request.ts';
import type { RuleOutcomeWaiter } from '../ingest/rule-outcomes.ts';
import { sendEvents } from '../ingest/send-events.ts';
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

/** Up to this many events, an oversized batch's details still name each invalid event. */
const MAX_ITEMS_VALIDATED = 10 * MAX_BATCH_EVENTS;

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
  app.post(
    '/api/v1/webhooks',
    {
      config: {
        rejectionsEndpoint: 'webhooks',
        openapi: {
          body: { oneOf: [{ $ref: webhookEventSchema.$id }, { $ref: webhookBatchSchema.$id }] },
          headers: {
            type: 'object',
            properties: { ...IDEMPOTENCY_HEADERS.properties, 'x-project-key': { type: 'string', description: "The project; must be the API key's" } },
          },
        },
      },
      schema: {
        tags: ['ingest'],
        summary: 'Send one event or a batch of up to 100',
        description:
          'A batch (`{"events": [...]}`) is validated all or nothing. 201 carries the rule engine\'s outcome (`tiles_affected`); 202 means stored, the outcome not awaited or not in time. ' +
          'Every answer after the limit check carries the rate-limit headers.',
        security: SECURITY.projectKey,
        response: {
          201: {
            description: "Stored, with the rule engine's outcome",
            headers: { ...RATE_LIMIT_HEADERS, ...REPLAYED_HEADER },
            oneOf: [{ $ref: webhookResultSchema.$id }, { $ref: webhookBatchResultSchema.$id }],
          },
          202: {
            description: "Stored; the rule engine's outcome was not awaited or not in time",
            headers: { ...RATE_LIMIT_HEADERS, ...REPLAYED_HEADER },
            oneOf: [{ $ref: webhookAcceptedSchema.$id }, { $ref: webhookBatchAcceptedSchema.$id }],
          },
          ...errors('envelope', [400, 401, 402, 403, 404, 409, 413, 415, 422, 429, 503], { ...RATE_LIMIT_HEADERS, ...REPLAYED_HEADER }),
        },
      },
      // Authenticate, and check the header's project, before the body is even read.
      onRequest: senderHook(deps.auth, (request, project) => {
        const named = headerValue(request.headers['x-project-key']);
        return named !== undefined && named !== project.projectKey
          ? new PulseboardError('forbidden', { message: `X-Project-Key "${named}" is not the project of the API key` })
          : undefined;
      }),
    },
    async (request, reply) => {
      const project = request.project!;
      const body = request.body;
      const batch = isBatch(body);
      const foreign = claimedProjectKeys(body, batch).find((c) => c.key !== project.projectKey);
      if (foreign !== undefined) throw new PulseboardError('forbidden', { message: `${foreign.where} "${foreign.key}" is not the project of the API key` });
      const events: unknown[] = batch ? ((body as { events?: unknown }).events as unknown[]) : [body];
      // A batch far over the limit is refused without validating its events one by one: with every
      // error reported, validating a 1 MiB array of items held the event loop for seconds.
      if (Array.isArray(events) && events.length > MAX_ITEMS_VALIDATED)
        throw new PulseboardError('validation_error', { details: { events: [`is too long (maximum is ${MAX_BATCH_EVENTS} items)`] } });
      const details = batch ? deps.validator.webhookBatch(body) : deps.validator.webhookEvent(body);
      if (Array.isArray(events) && events.length > MAX_BATCH_EVENTS) throw new PulseboardError('validation_error', { details: details ?? {} });

      const answer = (ids: readonly number[], receivedAt: Date, outcomes: ReadonlyMap<number, number> | undefined) => {
        if (batch) deps.metrics.webhookBatchEvents.observe(ids.length);
        return webhookAccepted(ids, receivedAt, batch, outcomes);
      };
      return sendEvents(deps, request, reply, {
        endpoint: 'webhooks',
        project,
        apiKey: request.apiKey!,
        // A batch that is not an array counts as one request of one event; it is refused (400) after the limit check.
        events: Array.isArray(events) ? events : [body],
        details,
        batch,
        answer,
      });
    },
  );
}
