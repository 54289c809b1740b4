import { readFileSync } from 'node:fs';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// prom-client's default metrics include three gauges named like counters; promtool refuses
// them. Each is the sum of its labelled sibling (nodejs_active_handles{type} and so on),
// which stays: sum(nodejs_active_handles) is the same figure.
const GAUGES_NAMED_LIKE_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/**
 * A service's metrics registry: the process and Node.js defaults (promtool-clean) and
 * `pulseboard_build_info{service, version, node_version}`. `packageJson` is the URL of the
 * service's package.json (`new URL('../package.json', import.meta.url)` from src/ or dist/).
 */
export function createServiceRegistry(service: string, packageJson: URL): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  const version = readVersion(packageJson);
  new Gauge({
    name: 'pulseboard_build_info',
    help: 'Always 1; the labels say what runs',
    labelNames: ['service', 'version', 'node_version'],
    registers: [registry],
  }).set({ service, version, node_version: process.version }, 1);
  return registry;
}

function readVersion(packageJson: URL): string {
  try {
    return String((JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** What of a pg Pool the metrics read (pg's own Pool has all of it). */
export interface MeteredPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  connect: (...args: never[]) => unknown;
}

/**
 * Postgres pool signals: clients by state, requests waiting for a client now, and how long
 * getting a client took (`pool.query` goes through `connect` too), so a pool too small for
 * its load shows as waits before it shows as latency.
 */
export function instrumentPool(registry: Registry, pool: MeteredPool): void {
  new Gauge({
    name: 'pulseboard_db_pool_clients',
    help: 'Postgres pool clients by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'active' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'pulseboard_db_pool_waiting_requests',
    help: 'Requests waiting for a Postgres pool client now',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
  const acquire = new Histogram({
    name: 'pulseboard_db_pool_acquire_seconds',
    help: 'Time to get a client from the Postgres pool (waits for a free one included)',
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  type Callback = (error: unknown, client: unknown, done: unknown) => void;
  const connect = (pool.connect as (callback?: Callback) => unknown).bind(pool);
  (pool as { connect: unknown }).connect = (callback?: Callback) => {
    const started = performance.now();
    const observe = () => acquire.observe((performance.now() - started) / 1000);
    if (callback !== undefined) {
      return connect((error, client, done) => {
        observe();
        callback(error, client, done);
      });
    }
    return (connect() as Promise<unknown>).then((client) => {
      observe();
      return client;
    });
  };
}
