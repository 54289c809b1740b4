import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import type { Logger } from 'pino';

const FIRST_CRASH_RESTART_MS = 1000;
const MAX_CRASH_RESTART_MS = 30_000;

/**
 * kafkajs restarts its consumer after a retriable crash only; after any other (no group
 * coordinator found through a broker outage longer than its retries) it leaves the consumer
 * disconnected, and the service would go on without one (or exit 0 once nothing else keeps it
 * alive). This restarts it with capped backoff until it joins again; the new member's claims are
 * fenced like any other's.
 */
export function restartAfterCrashes(
  consumer: Pick<Consumer, 'connect' | 'run' | 'on' | 'events'>,
  runConfig: ConsumerRunConfig,
  logger: Logger,
  context: { topic: string; groupId: string; stopping: () => boolean },
): { cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let backoffMs = FIRST_CRASH_RESTART_MS;
  const schedule = () => {
    if (timer !== undefined || context.stopping()) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (context.stopping()) return;
      consumer
        .connect()
        .then(() => consumer.run(runConfig))
        .then(() => logger.info({ event: 'consumer_restarted', topic: context.topic, group_id: context.groupId }))
        .catch((error: unknown) => {
          logger.warn({ event: 'consumer_restart_failed', topic: context.topic, group_id: context.groupId, retry_in_ms: backoffMs, err: error });
          schedule();
        });
    }, backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_CRASH_RESTART_MS);
  };
  consumer.on(consumer.events.GROUP_JOIN, () => (backoffMs = FIRST_CRASH_RESTART_MS));
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || context.stopping()) return;
    logger.error({ event: 'consumer_crashed', topic: context.topic, group_id: context.groupId, retry_in_ms: backoffMs, err: payload.error });
    schedule();
  });
  return {
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
