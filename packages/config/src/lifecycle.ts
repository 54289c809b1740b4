import type { Logger } from 'pino';

/** How long a service's stop() may take; the Helm chart sets it below terminationGracePeriodSeconds. */
export const shutdownEnvProperties = {
  SHUTDOWN_TIMEOUT_MS: {
    type: 'integer',
    minimum: 100,
    default: 30000,
    description: "Bound of the service's whole drain on SIGTERM (stop taking work, finish the batch in hand, flush, close); past it the process exits 1.",
  },
} as const;

/** One step of a drain, named for the log when it is the one still running at the bound. */
export type DrainStep = readonly [name: string, run: () => unknown];

/**
 * Runs a service's drain steps in order, each after the previous one settled (a failed step is
 * logged and the next still runs: the stores must be closed even when a flush failed), and gives
 * up after `timeoutMs` in all: a hung dependency (a broker or database that stopped answering)
 * cannot hold the pod until the kubelet's SIGKILL. Rejects when it gave up or a step failed.
 */
export function drainWithin(timeoutMs: number, logger: Logger, service: string, steps: readonly DrainStep[]): Promise<void> {
  let current = steps[0]?.[0] ?? 'none';
  let failed: string | undefined;
  const drain = (async () => {
    for (const [name, run] of steps) {
      current = name;
      try {
        await run();
      } catch (error) {
        failed ??= name;
        logger.warn({ event: 'shutdown_step_failed', service, step: name, err: error });
      }
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  return Promise.race([drain.then(() => 'done' as const), bound]).then((how) => {
    clearTimeout(timer);
    if (how === 'timeout') {
      logger.error({ event: 'shutdown_timed_out', service, step: current, timeout_ms: timeoutMs });
      throw new Error(`${service}: drain did not finish within ${timeoutMs} ms (still at ${current})`);
    }
    if (failed !== undefined) throw new Error(`${service}: drain step ${failed} failed`);
    logger.info({ event: `${service.replaceAll('-', '_')}_stopped` });
  });
}

/**
 * A service's main: on SIGINT/SIGTERM it calls `stop()` (which drains in order,
 * bounded by SHUTDOWN_TIMEOUT_MS) and exits 0, or 1 when stopping failed or timed out.
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
