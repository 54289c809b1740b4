import type { Pool } from '@pulseboard/db';
import type { Logger } from 'pino';
import type { Tracing } from '@pulseboard/config';
import type { Authenticator } from './auth/authenticator.ts';
import type { AuthThrottle } from './auth/auth-throttle.ts';
import type { CredentialSet } from './auth/credential-set.ts';
import type { LimitDefaults, ProjectDirectory } from './auth/project-directory.ts';
import type { GatewayEnv } from './env.ts';
import type { EnvelopeValidator } from './ingest/envelope-validator.ts';
import type { EventPipeline } from './ingest/event-pipeline.ts';
import type { IdempotencyStore } from './ingest/idempotency.ts';
import type { RuleOutcomeWaiter } from './ingest/rule-outcomes.ts';
import type { ReplyWaiter } from './ingest/reply-waiter.ts';
import type { NotificationOutcome, NotificationRequest } from '@pulseboard/contracts';
import type { LimitEnforcer } from './limits/limiter.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { RedisClient } from './redis-client.ts';
import type { ControlFeed } from './repositories/control-writes.ts';
import type { ProjectFreshness } from './freshness.ts';

/**
 * What the composition root (service.ts) builds, once. Only app.ts reads it:
 * each route is handed the few of these it uses.
 */
export interface GatewayDeps {
  env: GatewayEnv;
  logger: Logger;
  pool: Pool;
  redis: RedisClient;
  limitDefaults: LimitDefaults;
  directory: ProjectDirectory;
  auth: Authenticator;
  /** Failed authentications per client address and key prefix (also the admin token's). */
  throttle: AuthThrottle;
  /** Hashes of the credentials that may be valid: what a throttled request is checked against. */
  credentials: CredentialSet;
  limiter: LimitEnforcer;
  pipeline: EventPipeline;
  validator: EnvelopeValidator;
  metrics: GatewayMetrics;
  idempotency: IdempotencyStore;
  /** Where control-plane writes announce themselves (Redis revision, control topic through the outbox). */
  controlFeed: ControlFeed;
  /** The rule engine's outcomes for /webhooks; absent until a rule engine exists (answers are then 202). */
  ruleOutcomes?: RuleOutcomeWaiter;
  /** Send requests to the notification service, and the outcomes it reports back. */
  requestNotification: (request: NotificationRequest) => Promise<void>;
  notificationOutcomes: ReplyWaiter<string, NotificationOutcome>;
  /** How far behind live a project's tiles are (GET /projects/:id). */
  projectFreshness: ProjectFreshness;
  /** Whether Kafka is connected, for readiness. */
  kafkaReady: () => boolean;
  /** Spans per request (a no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  tracing: Tracing;
  now: () => number;
}
