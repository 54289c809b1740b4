import { SPAN_DAYS } from './load.ts';

/** One filter of GET /events, with values that vary from request to request as real traffic does. */
export interface FilterCase {
  name: string;
  /** Query parameters of the i-th request. */
  /** `count`: the events of the project asked about. */
  query(i: number, count: number, now: number): Record<string, string | string[]>;
}

const TYPES = ['deployment', 'uptime', 'error', 'metric', 'infrastructure'];
const NAMES = ['deploy_started', 'deploy_finished', 'http_check', 'ping_check', 'exception', 'crash', 'cpu_usage', 'memory_usage', 'vpc_change', 'dns_change'];
const SEVERITIES = ['info', 'warn', 'error', 'critical'];
const iso = (ms: number) => new Date(ms).toISOString();
// A deterministic spread of values (no Math.random: two runs ask the same questions).
const spread = (i: number, n: number) => (i * 7919 + 13) % n;

/** Every filter of CONTRACT.md, each alone (the "any single filter"), plus no filter. */
export const CASES: FilterCase[] = [
  { name: 'none', query: () => ({}) },
  { name: 'type', query: (i) => ({ type: TYPES[i % TYPES.length]! }) },
  { name: 'name', query: (i) => ({ name: NAMES[i % NAMES.length]! }) },
  { name: 'severity', query: (i) => ({ severity: SEVERITIES[i % SEVERITIES.length]! }) },
  { name: 'source', query: (i) => ({ source: `host-${spread(i, 50)}` }) },
  { name: 'channel', query: (i) => ({ channel: `ch-${spread(i, 10)}` }) },
  // Each workflow has a few events: a needle in millions.
  { name: 'correlation_id', query: (i, count) => ({ correlation_id: `wf-${spread(i, Math.floor(count / 5))}` }) },
  // 'prod' is on a third of the events, 'team-N' on 1 in 60, 'rare' on 1 in 1000.
  { name: 'label (common)', query: (i) => ({ label: i % 2 === 0 ? 'prod' : `team-${spread(i, 20)}` }) },
  { name: 'label (rare)', query: () => ({ label: 'rare' }) },
  { name: 'since (last 1-48 h)', query: (i, _c, now) => ({ since: iso(now - (1 + spread(i, 48)) * 3_600_000) }) },
  { name: 'until (1-29 days ago)', query: (i, _c, now) => ({ until: iso(now - (1 + spread(i, 29)) * 86_400_000) }) },
  {
    name: 'since+until (1 h window)',
    query: (i, _count, now) => {
      const span = SPAN_DAYS * 86_400_000;
      const start = now - span + spread(i, 1000) * (span / 1000);
      return { since: iso(start), until: iso(start + 3_600_000) };
    },
  },
];
