import type { Logger } from 'pino';

/**
 * A service's main: on SIGINT/SIGTERM it calls `stop()` (which drains in order)
 * and exits 0, or 1 when stopping failed.
 */
export function stopOnSignals(service: { stop(): Promise<void> }, logger: Logger): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ event: 'shutdown_requested', signal });
      service.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ event: 'shutdown_failed', err: error });
          process.exit(1);
        },
      );
    });
  }
}
