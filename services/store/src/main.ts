import { createLogger } from '@pulseboard/config';
import { loadStoreEnv } from './env.ts';
import { startStoreService } from './service.ts';

const env = loadStoreEnv();
const logger = createLogger('store', env.LOG_LEVEL);
const service = await startStoreService(env, logger);
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
