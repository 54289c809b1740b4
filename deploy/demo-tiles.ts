/**
 * The demo project's tiles, which `seed-demo.ts` creates. Their rules follow
 * the published rule schema (`tile-rule.json` in packages/contracts); the rule
 * engine's unit tests check that they do and how they evaluate.
 */
export const TILES = [
  {
    name: 'Deployments',
    kind: 'deployment',
    rule: {
      filter: { type: 'deployment' },
      evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical', deploy_rolled_back: 'warning' } },
    },
  },
  {
    name: 'API uptime',
    kind: 'uptime',
    rule: { filter: { type: 'uptime', name: 'http_check' }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '10m' },
  },
  {
    name: 'CPU usage',
    kind: 'metric',
    rule: { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
  },
  {
    name: 'Errors, last 5 minutes',
    kind: 'counter',
    rule: { filter: { type: 'error' }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 5, critical: 20 } },
  },
  {
    // GitHub's deployment_status and workflow_run webhooks (/api/v1/integrations/github).
    name: 'GitHub deployments',
    kind: 'deployment',
    rule: {
      filter: { type: 'deployment', source: 'github' },
      evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
    },
  },
  {
    // Alertmanager's webhook (/api/v1/integrations/alertmanager): firing is critical, resolved ok, one state per alert
    // (its fingerprint), so an alert resolved after another fired in the same webhook never hides the one still firing.
    name: 'Alertmanager alerts',
    kind: 'alert',
    rule: {
      filter: { type: 'error', name: 'alert', source: 'alertmanager' },
      group_by: 'fingerprint',
      evaluation: { kind: 'up_down', attribute: 'resolved' },
    },
  },
];
