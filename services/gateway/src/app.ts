import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { addPulseboardKeywords, eventEnvelopeSchema } from '@pulseboard/contracts';
import type { GatewayDeps } from './deps.ts';
import { setRevision } from './auth/revision.ts';
import { registerErrorHandler } from './error-handler.ts';
import { registerRequestDecoding } from './request-decoding.ts';
import { registerJsonBodyParser } from './json-body.ts';
import type { IntakeDeps } from './ingest/accept.ts';
import { registerIngestRoute } from './routes/ingest.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';
import { registerRateLimitRoutes } from './routes/rate-limits.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerAdminRoutes } from './control/admin-routes.ts';
import { registerProjectRoutes } from './control/projects-routes.ts';
import { registerTileRoutes } from './control/tiles-routes.ts';
import { registerNotificationRoutes } from './control/notifications-routes.ts';

/**
 * The HTTP surface: `/ingest` and `/api/v1/*` (spec 4). Takes its dependencies,
 * owns none, and hands each group of routes only the ones it uses.
 */
export function buildApp(deps: GatewayDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Per-request log lines cost more than the ingest itself; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // No pino child per request (a measurable share of an ingest's CPU): request.log is the
    // service logger, and the few lines logged per request name the request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: deps.env.BODY_LIMIT_BYTES,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestIdHeader: 'x-request-id',
    // Report every invalid field at once, and never coerce: a string is not a number. The shared
    // keywords bound free-form JSON (settings, rules) as they bound event attributes.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false }, plugins: [(ajv) => (addPulseboardKeywords(ajv as unknown as Parameters<typeof addPulseboardKeywords>[0]), ajv)] },
  }) as unknown as FastifyInstance;
  // Spec 4: every body is JSON. Without fastify's text parser, anything else is 415.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(app);
  app.addSchema(eventEnvelopeSchema);
  registerRequestDecoding(app);
  registerErrorHandler(app, { rejected: deps.metrics.requestsRejected });

  const { auth, pool, env } = deps;
  const intake: IntakeDeps = { limiter: deps.limiter, auth, pipeline: deps.pipeline, metrics: deps.metrics, logger: deps.logger, now: deps.now };
  const sending = { auth, intake, idempotency: deps.idempotency, validator: deps.validator };
  registerIngestRoute(app, sending);
  registerWebhookRoutes(app, { ...sending, metrics: deps.metrics, ruleOutcomes: deps.ruleOutcomes, outcomeTimeoutMs: env.WEBHOOK_OUTCOME_TIMEOUT_MS });
  registerRateLimitRoutes(app, { auth, admission: intake, directory: deps.directory, pool });
  registerEventRoutes(app, { auth, pool });
  registerSystemRoutes(app, { auth, pool, redis: deps.redis, kafkaReady: deps.kafkaReady, metrics: deps.metrics, now: deps.now });

  const publishRevision = (projectKey: string, revision: number) => setRevision(deps.redis, projectKey, revision);
  registerAdminRoutes(app, { adminToken: env.ADMIN_TOKEN, pool, publishRevision, defaultMonthlyQuota: env.DEFAULT_MONTHLY_QUOTA, limitDefaults: deps.limitDefaults });
  registerProjectRoutes(app, { auth, pool, publishRevision, limitDefaults: deps.limitDefaults });
  registerTileRoutes(app, { auth, pool });
  registerNotificationRoutes(app, { auth, pool, secretsKey: env.SECRETS_KEY, requestSend: deps.requestNotification, outcomes: deps.notificationOutcomes, sendTimeoutMs: env.NOTIFY_SEND_TIMEOUT_MS });
  return app;
}
