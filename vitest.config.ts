import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (*.test.ts beside the code, no infrastructure) and
 * `integration` (*.integration.test.ts, against the real Kafka, Postgres and
 * Redis that the global setup starts). `vitest run` runs both.
 */
// Workspace packages resolve to their TypeScript sources (src/), not to the
// compiled dist/ that production runs: the export condition of every package.json.
const conditions = ['@pulseboard/source', 'module', 'node', 'development|production'];

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
