import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { addPulseboardKeywords, eventEnvelopeSchema, parseAllowedTargets } from '@pulseboard/contracts';
import { proxySecretHash, registerHttpMetrics, registerHttpTracing, trustProxyOption } from '@pulseboard/config';
import type { GatewayDeps } from './deps.ts';
import { frameworkErrorHandler, registerErrorHandler } from './error-handler.ts';
import { registerRequestDecoding } from './request-decoding.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { registerStorableInput } from './storable-input.ts';
import { collectRouteTable } from './route-table.ts';
import { registerClientAddress } from './auth/client-address.ts';
import { registerCredentialCheckRoute } from './auth/credential-check-route.ts';
import { FixedWindowCounter } from './limits/fixed-window.ts';
import type { IntakeDeps } from './ingest/accept.ts';
import { registerIngestRoute } from './routes/ingest.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';
import { registerRateLimitRoutes } from './routes/rate-limits.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerAdminRoutes } from './control/admin-routes.ts';
import { registerProjectRoutes } from './control/projects-routes.ts';
import { RefusalLog } from './limits/refusals.ts';
import { registerTileRoutes } from './control/tiles-routes.ts';
import { registerNotificationRoutes } from './control/notifications-routes.ts';
import { registerOwnTokenRoutes } from './control/own-token-routes.ts';
import { registerIntegrationSecretRoutes } from './control/integration-secrets-routes.ts';
import { registerIntegrationRoutes } from './routes/integrations/index.ts';
import { GitHubSenders } from './routes/integrations/github-senders.ts';
import { buildJsonSerializer, registerOpenApi } from './openapi/register.ts';
import { registerResponseHeaders } from './response-headers.ts';

/**
 * The HTTP surface: `/ingest` and `/api/v1/*` (spec 4). Takes its dependencies,
 * owns none, and hands each group of routes only the ones it uses.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    // Per-request log lines cost more than the ingest itself; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // No pino child per request (a measurable share of an ingest's CPU): request.log is the
    // service logger, and the few lines logged per request name the request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: deps.env.BODY_LIMIT_BYTES,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestIdHeader: 'x-request-id',
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (default: none).
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    frameworkErrors: frameworkErrorHandler,
    schemaController: { compilersFactory: { buildSerializer: buildJsonSerializer } },
    // Report every invalid field at once, and never coerce: a string is not a number. The shared
    // keywords bound free-form JSON (settings, rules) as they bound event attributes.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false }, plugins: [(ajv) => (addPulseboardKeywords(ajv), ajv)] },
  }) as unknown as FastifyInstance;
  // Spec 4: every body is JSON. Without fastify's text parser, anything else is 415.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(app, { maxValues: deps.env.BODY_MAX_JSON_VALUES });
  app.addSchema(eventEnvelopeSchema);
  registerRequestDecoding(app);
  const internalProxy = proxySecretHash(deps.env.INTERNAL_PROXY_SECRET);
  registerClientAddress(app, internalProxy);
  registerErrorHandler(app, { rejected: deps.metrics.requestsRejected });
  registerStorableInput(app);
  registerResponseHeaders(app);
  registerHttpMetrics(app, deps.metrics.registry);
  registerHttpTracing(app, deps.tracing);
  // Before any route: the document is collected from the routes as they are added. Its own
  // routes (/docs, /api/v1/openapi.json) come before the route table: they are not the API.
  // Broadcast's own question (not the API): before the document and the route table see routes.
  registerCredentialCheckRoute(app, { credentials: deps.credentials, proxySecretHash: internalProxy });
  await registerOpenApi(app);
  collectRouteTable(app);

  const { auth, pool, env } = deps;
  // Refused requests are counted per project off the request path; what is counted goes out before the app closes.
  const refusals = new RefusalLog(deps.redis, deps.logger, deps.now);
  app.addHook('onClose', () => refusals.flush());
  const intake: IntakeDeps = { limiter: deps.limiter, auth, pipeline: deps.pipeline, metrics: deps.metrics, logger: deps.logger, now: deps.now, refusals };
  const sending = { auth, intake, idempotency: deps.idempotency, validator: deps.validator };
  registerIngestRoute(app, sending);
  registerWebhookRoutes(app, { ...sending, metrics: deps.metrics, ruleOutcomes: deps.ruleOutcomes, outcomeTimeoutMs: env.WEBHOOK_OUTCOME_TIMEOUT_MS });
  registerIntegrationRoutes(app, {
    auth,
    send: { intake, idempotency: deps.idempotency },
    validator: deps.validator,
    senders: new GitHubSenders({
      directory: deps.directory,
      auth,
      redis: deps.redis,
      pool,
      secretKeys: { current: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS },
    }),
    now: deps.now,
    maxBodyValues: env.BODY_MAX_JSON_VALUES,
  });
  registerRateLimitRoutes(app, { auth, admission: intake, directory: deps.directory, pool });
  registerEventRoutes(app, { auth, pool });
  registerSystemRoutes(app, { auth, pool, redis: deps.redis, kafkaReady: deps.kafkaReady, metrics: deps.metrics, now: deps.now });

  const { controlFeed } = deps;
  registerAdminRoutes(app, {
    adminToken: env.ADMIN_TOKEN,
    auth,
    throttle: deps.throttle,
    pool,
    controlFeed,
    defaultMonthlyQuota: env.DEFAULT_MONTHLY_QUOTA,
    limitDefaults: deps.limitDefaults,
  });
  registerProjectRoutes(app, {
    auth,
    pool,
    controlFeed,
    refusals,
    freshness: deps.projectFreshness,
    limitDefaults: deps.limitDefaults,
    ceilings: { monthlyQuota: env.ACCOUNT_MAX_MONTHLY_QUOTA, burst: env.ACCOUNT_MAX_BURST_LIMIT, hourly: env.ACCOUNT_MAX_HOURLY_REQUEST_LIMIT },
  });
  registerTileRoutes(app, { auth, pool, controlFeed, maxTilesPerProject: env.MAX_TILES_PER_PROJECT, previewTimeLimitMs: env.PREVIEW_TIME_LIMIT_MS });
  registerOwnTokenRoutes(app, { auth, pool });
  registerIntegrationSecretRoutes(app, { auth, pool, controlFeed, secretKeys: { current: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS } });
  registerNotificationRoutes(app, {
    auth,
    pool,
    secretKeys: { current: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS },
    targetPolicy: { allowPrivate: env.NOTIFY_ALLOW_PRIVATE, allowTargets: parseAllowedTargets(env.NOTIFY_ALLOW_TARGETS) },
    requestSend: deps.requestNotification,
    outcomes: deps.notificationOutcomes,
    sendTimeoutMs: env.NOTIFY_SEND_TIMEOUT_MS,
    sends: new FixedWindowCounter(deps.redis, 'ns', 60, deps.now),
    sendsPerMinute: env.NOTIFY_SENDS_PER_MINUTE,
    maxServicesPerAccount: env.MAX_NOTIFICATION_SERVICES_PER_ACCOUNT,
    controlFeed: deps.controlFeed,
  });
  return app;
}
