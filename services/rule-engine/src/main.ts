import { createLogger, stopOnSignals } from '@pulseboard/config';
import { loadRuleEngineEnv } from './env.ts';
import { startRuleEngine } from './service.ts';

const env = loadRuleEngineEnv();
const logger = createLogger('rule-engine', env.LOG_LEVEL);
stopOnSignals(await startRuleEngine(env, { logger }), logger);
