import { requestTraceparent } from '@pulseboard/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ValidationDetails } from '@pulseboard/contracts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import { acceptEvents, type IntakeDeps, type IntakeEndpoint } from './accept.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { withIdempotency, type Produced } from './idempotent-request.ts';
import { rateLimitHeaders } from './limit-replies.ts';
import type { RuleOutcomeWaiter, RuleOutcomeWatch } from './rule-outcomes.ts';

export interface SendEventsDeps {
  intake: IntakeDeps;
  idempotency: IdempotencyStore;
  /** The rule engine's outcomes, waited for up to `outcomeTimeoutMs`; absent: nobody waits. */
  ruleOutcomes?: RuleOutcomeWaiter | undefined;
  outcomeTimeoutMs?: number;
}

export interface EventsToSend {
  endpoint: IntakeEndpoint;
  project: ProjectAuth;
  /** The request's API key; absent when the request was authenticated otherwise (a GitHub signature). */
  apiKey: string | undefined;
  events: readonly unknown[];
  details: ValidationDetails | null;
  batch: boolean;
  /** The Idempotency-Key, when it comes from elsewhere than the header (GitHub's delivery id). */
  idempotencyKey?: string | undefined;
  /** The success answer, from the accepted ids and (when waited for) the rule engine's outcomes. */
  answer: (ids: readonly number[], receivedAt: Date, outcomes: ReadonlyMap<number, number> | undefined) => { status: number; body: unknown };
}

/**
 * The path every event-sending route shares after authentication and its own
 * reading of the body: `Idempotency-Key`, limits, validation, ids, Kafka
 * (acceptEvents, in CONTRACT order, all or nothing), the six rate-limit
 * headers on every answer after the limit check, and optionally the bounded
 * wait for the rule engine's outcome.
 */
export function sendEvents(deps: SendEventsDeps, request: FastifyRequest, reply: FastifyReply, s: EventsToSend): Promise<FastifyReply> {
  const idempotent = { idempotency: deps.idempotency, logger: deps.intake.logger };
  const scope = { endpoint: s.endpoint, projectKey: s.project.projectKey, ...(s.idempotencyKey === undefined ? {} : { key: s.idempotencyKey }) };
  return withIdempotency(idempotent, request, reply, scope, async (attempt): Promise<Produced> => {
    let watch: RuleOutcomeWatch | undefined;
    let headers: Record<string, number> | undefined;
    const result = await acceptEvents(deps.intake, {
      endpoint: s.endpoint,
      project: s.project,
      apiKey: s.apiKey,
      events: s.events,
      details: s.details,
      batch: s.batch,
      // Nobody waits when WEBHOOK_OUTCOME_TIMEOUT_MS is 0: the engine need not answer.
      outcomeWanted: deps.ruleOutcomes !== undefined,
      resume: attempt.resume,
      traceparent: requestTraceparent(request),
      onDecided: (decided, decision) => {
        headers = rateLimitHeaders(decided, decision);
        reply.headers(headers);
      },
      beforePublish: async (published) => {
        await attempt.record?.(published);
        watch = deps.ruleOutcomes?.watch(published.ids);
      },
    }).catch((error: unknown) => {
      watch?.cancel();
      throw error;
    });
    const outcomes = watch === undefined ? undefined : await watch.result(deps.outcomeTimeoutMs ?? 0);
    return { ...s.answer(result.ids, result.receivedAt, outcomes), ...(headers === undefined ? {} : { headers }) };
  });
}
