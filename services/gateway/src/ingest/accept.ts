import type { ValidationDetails, WebhookEvent } from '@pulseboard/contracts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import type { GatewayDeps } from '../deps.ts';
import type { LimitDecision } from '../limits/limiter.ts';
import { errors, type ApiError } from '../replies.ts';
import { admit } from './admission.ts';
import { limitError } from './limit-replies.ts';

export type Decided = Exclude<LimitDecision, { kind: 'stale' }>;

export interface Accepted {
  ok: true;
  /** The project as the limiter last saw it (fresh limits after a change). */
  project: ProjectAuth;
  decision: Extract<LimitDecision, { kind: 'allowed' }>;
  ids: number[];
  receivedAt: Date;
}

export interface Refused {
  ok: false;
  error: ApiError;
  /** Present once the limits were looked at, for the rate-limit headers of webhooks. */
  project?: ProjectAuth;
  decision?: Decided;
}

export interface Submission {
  endpoint: 'ingest' | 'webhooks';
  /** The project of the request's API key, from the directory's cache. */
  project: ProjectAuth;
  apiKey: string;
  events: readonly unknown[];
  /** What is wrong with the events, or null when all are valid. */
  details: ValidationDetails | null;
  /** Called with the ids before the events go to Kafka (e.g. to start watching for rule outcomes). */
  beforePublish?: (ids: readonly number[]) => void;
}

/**
 * The ingest contract shared by /ingest and /webhooks, in CONTRACT order:
 * rate limits (429), quota (402), validation (400), then ids and Kafka. Each
 * event counts against burst and quota, the request once against the hourly
 * limits. Invalid or refused requests consume nothing; a request Kafka did not
 * acknowledge gets its allowance back and fails with a retryable error (503).
 */
export async function acceptEvents(deps: GatewayDeps, s: Submission): Promise<Accepted | Refused> {
  const valid = s.details === null;
  const admission = await admit(deps, s.project, { apiKey: s.apiKey, events: s.events.length, consume: valid });
  if (!admission.ok) return { ok: false, error: admission.error };
  const { project, decision } = admission;
  if (decision.kind !== 'allowed') return { ok: false, error: limitError(decision), project, decision };
  if (s.details !== null) return { ok: false, error: errors.validation(s.details), project, decision };

  const receivedAt = new Date(deps.now());
  try {
    const ids = await deps.pipeline.allocateIds(s.events.length);
    s.beforePublish?.(ids);
    const started = performance.now();
    await deps.pipeline.publish(project, s.events as WebhookEvent[], ids, receivedAt);
    deps.metrics.kafkaAckMs.observe(performance.now() - started);
    deps.metrics.eventsAccepted.inc({ endpoint: s.endpoint }, s.events.length);
    return { ok: true, project, decision, ids, receivedAt };
  } catch (error) {
    // Nothing was accepted: give back what the limiter took.
    await deps.limiter.refund(project, s.events.length, decision.windows).catch((refundError: unknown) => {
      deps.logger.warn({ event: 'limit_refund_failed', project_key: project.projectKey, err: refundError });
    });
    throw error;
  }
}
