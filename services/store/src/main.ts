import { createLogger, stopOnSignals } from '@pulseboard/config';
import { loadStoreEnv } from './env.ts';
import { startStoreService } from './service.ts';

const env = loadStoreEnv();
const logger = createLogger('store', env.LOG_LEVEL);
stopOnSignals(await startStoreService(env, logger), logger);
