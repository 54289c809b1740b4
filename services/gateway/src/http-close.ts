import type { FastifyInstance } from 'fastify';
import type { Logger } from '@pulseboard/config';

/**
 * Stops taking requests and lets those in flight finish, for up to `graceMs`; then cuts the
 * connections still open, so one request that never ends (a client that stalls mid-body, a
 * dependency that stopped answering) cannot hold up the rest of the drain: flushing the
 * producer and closing the stores come after this step.
 */
export async function closeHttpWithin(app: FastifyInstance, graceMs: number, logger: Logger): Promise<void> {
  const closing = app.close();
  const timer = setTimeout(() => {
    logger.warn({ event: 'http_connections_cut', grace_ms: graceMs });
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}
