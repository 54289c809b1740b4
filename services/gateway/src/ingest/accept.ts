import type { Logger } from 'pino';
import { PulseboardError, type ValidationDetails, type WebhookEvent } from '@pulseboard/contracts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import type { LimitDecision } from '../limits/limiter.ts';
import type { RefusalLog } from '../limits/refusals.ts';
import type { GatewayMetrics } from '../metrics.ts';
import { admit, type AdmissionDeps, type Decided } from './admission.ts';
import type { EventPipeline } from './event-pipeline.ts';
import type { PublishAttempt } from './idempotency.ts';
import { limitError } from './limit-replies.ts';
import { timestampWindowDetails } from './timestamp-window.ts';

export interface IntakeDeps extends AdmissionDeps {
  pipeline: EventPipeline;
  metrics: Pick<GatewayMetrics, 'kafkaAckSeconds' | 'eventsAccepted'>;
  logger: Logger;
  now: () => number;
  /** Counts requests the limits refuse, per project (what the dashboard shows of them). */
  refusals: Pick<RefusalLog, 'record'>;
}

export interface Accepted {
  /** The project as the limiter last saw it (fresh limits after a change). */
  project: ProjectAuth;
  decision: Extract<LimitDecision, { kind: 'allowed' }>;
  ids: readonly number[];
  receivedAt: Date;
}

/** The endpoint label of what a request sent (metrics, Idempotency-Key scopes). */
export type IntakeEndpoint = 'ingest' | 'webhooks' | 'cloudevents' | 'pagerduty' | 'alertmanager' | 'github';

export interface Submission {
  endpoint: IntakeEndpoint;
  /** The project of the request's API key (or of a verified signature), from the directory's cache. */
  project: ProjectAuth;
  /** Absent when the request was authenticated by a signature, not a key. */
  apiKey: string | undefined;
  events: readonly unknown[];
  /** What is wrong with the events, or null when all are valid. */
  details: ValidationDetails | null;
  /** A webhooks batch: details are keyed `events[i].`. */
  batch?: boolean;
  /** Told the limiter's decision once made, refusals included (e.g. for rate-limit headers). */
  onDecided?: (project: ProjectAuth, decision: Decided) => void;
  /** Ids of an earlier attempt of this same request whose events may have reached Kafka: reused, so they are stored once. */
  resume?: PublishAttempt | undefined;
  /** Called with the ids before the events go to Kafka (e.g. to start watching for rule outcomes). */
  beforePublish?: ((attempt: PublishAttempt) => void | Promise<void>) | undefined;
  /** The request waits for the rule engine's outcome: the events ask the engine for one (pb-outcome-wanted). */
  outcomeWanted?: boolean;
  /** W3C trace context the events carry on (the request's span, or its own header with tracing off). */
  traceparent?: string | undefined;
}

/**
 * The ingest contract shared by /ingest and /webhooks, in CONTRACT order:
 * rate limits (429), quota (402), validation (400, the timestamp window
 * included), then ids and Kafka; each
 * refusal is thrown as its catalog error. Each event counts against burst and
 * quota, the request once against the hourly limits. Invalid or refused
 * requests consume nothing; a request Kafka did not acknowledge gets its
 * allowance back and fails with a retryable error (503).
 */
export async function acceptEvents(deps: IntakeDeps, s: Submission): Promise<Accepted> {
  const nowMs = deps.now();
  const details = s.details ?? timestampWindowDetails(s.events, s.project.retentionDays, nowMs, s.batch === true);
  const { project, decision } = await admit(deps, s.project, {
    ...(s.apiKey === undefined ? {} : { apiKey: s.apiKey }),
    events: s.events.length,
    consume: details === null,
  });
  s.onDecided?.(project, decision);
  if (decision.kind !== 'allowed') {
    deps.refusals.record(project.projectKey, decision);
    throw limitError(decision);
  }
  if (details !== null) throw new PulseboardError('validation_error', { details });
  // The limiter found the cached project stale and re-read it: its retention may have just changed.
  const recheck = project.retentionDays === s.project.retentionDays ? null : timestampWindowDetails(s.events, project.retentionDays, nowMs, s.batch === true);
  if (recheck !== null) {
    await deps.limiter.refund(project, s.events.length, decision.windows).catch(() => undefined);
    throw new PulseboardError('validation_error', { details: recheck });
  }

  const resume = s.resume !== undefined && s.resume.ids.length === s.events.length ? s.resume : undefined;
  const receivedAt = new Date(resume?.receivedAtMs ?? deps.now());
  try {
    const ids = resume?.ids ?? (await deps.pipeline.allocateIds(s.events.length));
    await s.beforePublish?.({ ids, receivedAtMs: receivedAt.getTime() });
    const started = performance.now();
    await deps.pipeline.publish(project, s.events as WebhookEvent[], ids, receivedAt, s.outcomeWanted === true, s.traceparent);
    deps.metrics.kafkaAckSeconds.observe((performance.now() - started) / 1000);
    deps.metrics.eventsAccepted.inc({ endpoint: s.endpoint }, s.events.length);
    return { project, decision, ids, receivedAt };
  } catch (error) {
    // Nothing was accepted: give back what the limiter took.
    await deps.limiter.refund(project, s.events.length, decision.windows).catch((refundError: unknown) => {
      deps.logger.warn({ event: 'limit_refund_failed', project_key: project.projectKey, err: refundError });
    });
    throw error;
  }
}
