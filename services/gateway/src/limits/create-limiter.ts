import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis-client.ts';
import { LeasedLimiter } from './leased-limiter.ts';
import { Limiter, type LimitEnforcer } from './limiter.ts';
import { RevisionWatch } from './revision-watch.ts';

export interface GatewayLimiter {
  limiter: LimitEnforcer;
  /** Gives back every lease this gateway holds and stops watching revisions (graceful stop). */
  drain(): Promise<void>;
}

/**
 * The gateway's limiter: leases (LIMIT_LEASES=on, leased-limiter.ts) on a
 * single Redis, the exact limiter otherwise. On Redis Cluster the revision
 * watch would need every node's pushes, so there the limiter stays exact.
 */
export async function createGatewayLimiter(options: {
  leases: boolean;
  redis: RedisClient;
  logger: Logger;
  loadMonthlyUsage: (projectKey: string, monthStart: Date) => Promise<number>;
  now: () => number;
  observeBatch: (size: number) => void;
}): Promise<GatewayLimiter> {
  const { redis, logger, loadMonthlyUsage, now, observeBatch } = options;
  if (!options.leases || !(redis instanceof Redis)) {
    return { limiter: new Limiter(redis, loadMonthlyUsage, now, observeBatch), drain: () => Promise.resolve() };
  }
  const watch = new RevisionWatch(redis, logger);
  await watch.start();
  const limiter = new LeasedLimiter(redis, loadMonthlyUsage, watch, now, observeBatch);
  return {
    limiter,
    async drain() {
      await limiter.drain().catch((err: unknown) => logger.warn({ event: 'limit_leases_not_returned', err }));
      watch.stop();
    },
  };
}
