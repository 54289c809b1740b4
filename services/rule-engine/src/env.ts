import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  RULE_ENGINE_GROUP_ID: { type: 'string', minLength: 1, default: 'pulseboard-rule-engine', description: 'Kafka consumer group of the rule engine instances.' },
  // One per partition of the events topic (6), so a fetch waits for one batch, not for several in turn.
  RULE_ENGINE_PARTITIONS_CONCURRENTLY: {
    type: 'integer',
    minimum: 1,
    default: 6,
    description: "Batches of one fetch applied side by side, each in its own transaction; needs as many pool connections, plus the relay's.",
  },
  // Time-bounded batching (kafka-kit FetchPacer). 20 ms: shorter gathers made a fetch, a transaction and a
  // relay round per one or two events at low rates.
  RULE_ENGINE_GATHER_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 20,
    description:
      "While events flow, the engine's fetches are this far apart, so a transaction carries this long's events; part of every tile change's and webhook outcome's latency.",
  },
  // 100 ms: shorter ticks open a transaction at every tick once the windows of a steady stream start to empty.
  RULE_ENGINE_TIME_GATHER_MS: {
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    default: 100,
    description:
      'Time-driven changes (window entries leaving, staleness, damping) falling due within this long share one timer tick and one transaction per partition; such a change is up to this late.',
  },
  RULE_ENGINE_SESSION_TIMEOUT_MS: {
    type: 'integer',
    minimum: 6000,
    default: 30000,
    description: 'How long a crashed engine keeps its partitions before the group moves them.',
  },
  // Rule changes: see docs/rules.md, "Rule changes".
  RULE_ENGINE_RULES_POLL_MS: {
    type: 'integer',
    minimum: 50,
    default: 30000,
    description:
      "Safety net only: how often the cached rules' project revisions are compared with Postgres (rule changes arrive by order and through the control topic).",
  },
  RULE_ENGINE_FOLLOW_REVISIONS: {
    type: 'boolean',
    default: true,
    description:
      "false: ignore the events' project revisions and the control topic, leaving rule changes to the poll alone. Only to show what the revisions buy; never in production.",
  },
  RULE_ENGINE_RELAY_SWEEP_MS: {
    type: 'integer',
    minimum: 100,
    default: 1000,
    description:
      "How often the relay looks for history and outbox rows no commit announced (a former owner's, after a crash); it sends after every commit anyway.",
  },
  // Rather than after every round (a round per commit, every 20 ms while events flow).
  RULE_ENGINE_RELAY_MARK_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    default: 500,
    description:
      "How often the relay writes how far it sent; a crash or hand-over sends up to this long's tile changes again (readers drop repeats by position).",
  },
  RULE_ENGINE_REPLAY_POLL_MS: {
    type: 'integer',
    minimum: 50,
    maximum: 10000,
    default: 250,
    description:
      'How often each engine looks for replays to apply (POST /tiles/{id}/replay with dry_run false); a replay waits up to this long before it starts.',
  },
  STORE_GROUP_ID: {
    type: 'string',
    minLength: 1,
    default: 'pulseboard-store',
    description:
      "The store's consumer group (the store's STORE_GROUP_ID): a replay applied by the engine waits until the store has stored every event the engine applied.",
  },
  RULE_ENGINE_HTTP_PORT: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 9103,
    description: 'Port of /healthz, /readyz and /metrics; 0 disables the listener.',
  },
  RULE_ENGINE_HTTP_HOST: { type: 'string', default: '127.0.0.1', description: 'Address of the health and metrics listener.' },
  MIGRATE_ON_START: {
    type: 'boolean',
    default: true,
    description: "Apply the service's own migrations at start (the Helm chart sets false and runs them in a pre-install/pre-upgrade Job).",
  },
} as const;

export type RuleEngineEnv = EnvOf<typeof properties>;

export function loadRuleEngineEnv(env: Record<string, string | undefined> = process.env): RuleEngineEnv {
  return loadEnv<RuleEngineEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const ruleEngineEnvProperties: Record<string, object> = properties;
