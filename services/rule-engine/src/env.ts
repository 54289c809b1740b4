import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  RULE_ENGINE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-rule-engine' },
  // Batches of one fetch applied side by side, each in its own transaction: one per partition of the
  // events topic (6), so a fetch waits for one batch, not for several in turn (bench:rules: the wait
  // before evaluation fell from 34 to 25 ms mean at 2,000 events/s). Needs as many pool connections, plus the relay's.
  RULE_ENGINE_PARTITIONS_CONCURRENTLY: { type: 'integer', minimum: 1, default: 6 },
  // Time-bounded batching (kafka-kit FetchPacer): while events flow, fetches are this far apart, so a
  // transaction carries this long's events; part of every tile change's and webhook outcome's latency.
  // 20 ms: at 100 events/s, 10 ms made a fetch, a transaction and a relay round per 1-2 events (docs/performance.md).
  RULE_ENGINE_GATHER_MS: { type: 'integer', minimum: 0, maximum: 1000, default: 20 },
  // Time-driven changes (window entries leaving, staleness, damping) are applied by a timer whose ticks
  // are at least this far apart: what falls due within it shares one transaction per partition. A
  // time-driven change is up to this late; 20 made a tick (and a transaction) every 20 ms once windows
  // of a steady stream start to empty (docs/performance.md).
  RULE_ENGINE_TIME_GATHER_MS: { type: 'integer', minimum: 1, maximum: 10000, default: 100 },
  // How long a crashed engine keeps its partitions before the group moves them.
  RULE_ENGINE_SESSION_TIMEOUT_MS: { type: 'integer', minimum: 6000, default: 30000 },
  // A safety net only: how often the cached rules' project revisions are compared with Postgres.
  // Rule changes reach the engine by order (each event carries its gateway's project revision) and
  // through the control topic; see docs/rules.md, "Rule changes".
  RULE_ENGINE_RULES_POLL_MS: { type: 'integer', minimum: 50, default: 30000 },
  // false: ignore the events' project revisions and the control topic, leaving rule changes to the
  // poll alone. Only to show what the revisions buy (tests); never in production.
  RULE_ENGINE_FOLLOW_REVISIONS: { type: 'boolean', default: true },
  // The relay sends after each commit; this sweep only finds what no commit announced (a former
  // owner's rows after a crash), so it can be slow.
  RULE_ENGINE_RELAY_SWEEP_MS: { type: 'integer', minimum: 100, default: 1000 },
  // How often the relay writes how far it sent the history (its cursors), instead of after every
  // round (a round per commit, every 20 ms while events flow). A crash or a hand-over sends what the
  // last written cursor does not cover again: tile changes are at least once, readers drop repeats by position.
  RULE_ENGINE_RELAY_MARK_MS: { type: 'integer', minimum: 0, maximum: 10000, default: 500 },
  // Liveness/readiness and /metrics; 0 disables the listener.
  RULE_ENGINE_HTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9103 },
  RULE_ENGINE_HTTP_HOST: { type: 'string', default: '127.0.0.1' },
  MIGRATE_ON_START: { type: 'boolean', default: true },
} as const;

export type RuleEngineEnv = EnvOf<typeof properties>;

export function loadRuleEngineEnv(env: Record<string, string | undefined> = process.env): RuleEngineEnv {
  return loadEnv<RuleEngineEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const ruleEngineEnvProperties: Record<string, object> = properties;
