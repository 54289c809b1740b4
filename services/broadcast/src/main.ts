import { createLogger, stopOnSignals } from '@pulseboard/config';
import { loadBroadcastEnv } from './env.ts';
import { startBroadcast } from './service.ts';

const env = loadBroadcastEnv();
const logger = createLogger('broadcast', env.LOG_LEVEL);
stopOnSignals(await startBroadcast(env, logger), logger);
