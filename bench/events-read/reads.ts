import type pg from 'pg';
import { countEvents, selectEventPage } from '../../packages/event-store/src/index.ts';
import { parseEventFilters } from '../../services/gateway/src/params/event-filters.ts';
import { BENCH_PROJECT } from '../list-events/load.ts';
import { CASES } from '../list-events/cases.ts';
import { measure, ms } from '../list-events/measure.ts';

export interface FilterFigures {
  name: string;
  p50: number;
  p99: number;
}

/** Each equality filter's own index (the case names of bench/list-events/cases.ts). */
export const FILTER_INDEXES: Record<string, string> = {
  type: 'events_project_type_time_idx',
  name: 'events_project_name_time_idx',
  severity: 'events_project_severity_time_idx',
  source: 'events_project_source_time_idx',
  channel: 'events_project_channel_time_idx',
  correlation_id: 'events_project_correlation_time_idx',
};

/**
 * p50/p99 of each filter of bench/list-events (every documented filter alone,
 * values varying per request) as the read API asks it: the first page, then
 * its total_count, on `client`, one request at a time after 5 unmeasured.
 * `hot`: the events of the project asked about.
 */
export async function measureFilters(
  client: pg.ClientBase,
  requests: number,
  hot: number,
  now: number,
  log: (line: string) => void,
  only?: readonly string[],
): Promise<FilterFigures[]> {
  const out: FilterFigures[] = [];
  for (const c of CASES) {
    if (only !== undefined && !only.includes(c.name)) continue;
    const figures = await measure(requests, 5, async (i) => {
      const parsed = parseEventFilters(c.query(i, hot, now));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
      await selectEventPage(client, [BENCH_PROJECT], parsed.filters, { perPage: 25, offset: 0 });
      await countEvents(client, [BENCH_PROJECT], parsed.filters);
    });
    out.push({ name: c.name, p50: figures.p50, p99: figures.p99 });
    log(`  ${c.name.padEnd(26)} p50 ${ms(figures.p50).padStart(7)} ms  p99 ${ms(figures.p99).padStart(7)} ms`);
  }
  return out;
}
