import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GatewayDeps } from './deps.ts';
import { registerErrorHandling } from './error-handling.ts';
import { registerRequestDecoding } from './request-decoding.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { registerIngestRoute } from './routes/ingest.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';
import { registerRateLimitRoutes } from './routes/rate-limits.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerAdminRoutes } from './control/admin-routes.ts';
import { registerProjectRoutes } from './control/projects-routes.ts';
import { registerTileRoutes } from './control/tiles-routes.ts';
import { eventEnvelopeSchema } from '@pulseboard/contracts';

/** The HTTP surface: `/ingest` and `/api/v1/*` (spec 4). Takes its dependencies, owns none. */
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
    // Report every invalid field at once, and never coerce: a string is not a number.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false } },
  }) as unknown as FastifyInstance;
  // Spec 4: every body is JSON. Without fastify's text parser, anything else is 415.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(app);
  app.addSchema(eventEnvelopeSchema);
  registerRequestDecoding(app);
  registerErrorHandling(app);
  registerIngestRoute(app, deps);
  registerWebhookRoutes(app, deps);
  registerRateLimitRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerSystemRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerTileRoutes(app, deps);
  return app;
}
