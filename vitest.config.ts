import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (*.test.ts beside the code, no infrastructure) and
 * `integration` (*.integration.test.ts, against the real Kafka, Postgres and
 * Redis that the global setup starts). `vitest run` runs both.
 */
// Workspace packages resolve to their TypeScript sources (src/), not to the
// compiled dist/ that production runs: the export condition of every package.json.
const conditions = ['@pulseboard/source', 'module', 'node', 'development|production'];

/**
 * Integration files whose subject does not depend on where Kafka, Postgres and
 * Redis run (CLI and client behaviour, generated inputs, a browser page, the
 * Helm chart, services refusing to start): the containers path of CI
 * (TEST_INFRA=containers, deploy/test-containers.sh) leaves them out, since the
 * local path has just run them on real infrastructure and CI's time is bounded
 * (90 min for both paths). Every other integration file runs on both.
 */
const INFRA_NEUTRAL = [
  'tests/ops/chart.integration.test.ts',
  'tests/ops/alerts.integration.test.ts',
  'tests/ops/chart-monitoring.integration.test.ts',
  'tests/ops/chart-kafka-security.integration.test.ts',
  // Runs a SASL_SSL broker of its own from the Maven jars, wherever the shared infrastructure runs.
  'tests/e2e/kafka-security.integration.test.ts',
  'tests/e2e/secrets-startup.integration.test.ts',
  'services/gateway/src/fuzz.integration.test.ts',
  'tests/e2e/broadcast-fuzz.integration.test.ts',
  'services/gateway/src/openapi/openapi.integration.test.ts',
  'tests/e2e/cli.integration.test.ts',
  'tests/e2e/cli-client.integration.test.ts',
  'tests/e2e/client.integration.test.ts',
  'tests/e2e/client-outage.integration.test.ts',
  'tests/e2e/packaging.integration.test.ts',
  'tests/e2e/dashboard.integration.test.ts',
  'tests/e2e/seed-demo.integration.test.ts',
  'tests/e2e/demo-traffic.integration.test.ts',
  'tests/e2e/up.integration.test.ts',
  'tests/e2e/tracing.integration.test.ts',
  // The soak runs its own Postgres cluster, broker and redis-server, wherever the shared ones run.
  'tests/soak/chaos.integration.test.ts',
];
const onContainers = process.env.TEST_INFRA === 'containers';

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@pulseboard/source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Some units are property tests over 10^5 cases: room for a busy machine.
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
          include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Units first; integration files run two at a time (2 cores, one shared broker).
          sequence: { groupOrder: 1 },
          include: ['packages/*/src/**/*.integration.test.ts', 'services/*/src/**/*.integration.test.ts', 'tests/**/*.integration.test.ts'],
          exclude: ['**/node_modules/**', ...(onContainers ? INFRA_NEUTRAL : [])],
          globalSetup: ['packages/test-kit/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
