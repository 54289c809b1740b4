export { loadRuleEngineEnv, type RuleEngineEnv } from './env.ts';
export { MIGRATIONS_DIR, startRuleEngine, type RuleEngineService, type RuleEngineOptions } from './service.ts';
