import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  RULE_ENGINE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-rule-engine' },
  // Batches of one fetch applied side by side, each in its own transaction: one per partition of the
  // events topic (6), so a fetch waits for one batch, not for several in turn (bench:rules: the wait
  // before evaluation fell from 34 to 25 ms mean at 2,000 events/s). Needs as many pool connections, plus the relay's.
  RULE_ENGINE_PARTITIONS_CONCURRENTLY: { type: 'integer', minimum: 1, default: 6 },
  // How long a crashed engine keeps its partitions before the group moves them.
  RULE_ENGINE_SESSION_TIMEOUT_MS: { type: 'integer', minimum: 6000, default: 30000 },
  // How often the cached rules are compared with the tiles table: the bound on a rule change's delay.
  RULE_ENGINE_RULES_POLL_MS: { type: 'integer', minimum: 50, default: 500 },
  // Liveness/readiness and /metrics; 0 disables the listener.
  RULE_ENGINE_HTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9103 },
  RULE_ENGINE_HTTP_HOST: { type: 'string', default: '127.0.0.1' },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export type RuleEngineEnv = EnvOf<typeof properties>;

export function loadRuleEngineEnv(env: Record<string, string | undefined> = process.env): RuleEngineEnv {
  return loadEnv<RuleEngineEnv>(properties, env);
}
