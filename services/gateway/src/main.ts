import { createLogger, stopOnSignals } from '@pulseboard/config';
import { loadGatewayEnv } from './env.ts';
import { startGateway } from './service.ts';

const env = loadGatewayEnv();
const logger = createLogger('gateway', env.LOG_LEVEL);
stopOnSignals(await startGateway(env, { logger }), logger);
