import { createLogger, stopOnSignals } from '@pulseboard/config';
import { loadNotificationEnv } from './env.ts';
import { startNotificationService } from './service.ts';

const env = loadNotificationEnv();
const logger = createLogger('notification', env.LOG_LEVEL);
stopOnSignals(await startNotificationService(env, logger), logger);
