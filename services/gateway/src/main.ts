import { loadGatewayEnv } from './env.ts';
import { startGateway } from './service.ts';
import { createLogger } from '@pulseboard/config';

const env = loadGatewayEnv();
const logger = createLogger('gateway', env.LOG_LEVEL);
const service = await startGateway(env, { logger });
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
