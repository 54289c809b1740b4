import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../testing/test-gateway.test-support.ts';
import { COUNT_CAP } from '../repositories/events.ts';

const STORED = COUNT_CAP + 550;
const METRICS = STORED - 50;

/**
 * total_count past COUNT_CAP matches. The rows are written as the store writes
 * them (events plus the per-project monthly counter in one statement), with
 * ids from the real allocator, straight into Postgres: ingesting 10,000 events
 * through the pipeline would only slow this test down.
 */
describe('GET /api/v1/events total_count: exact when unfiltered, bounded when a filter matches more than COUNT_CAP', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let p: Awaited<ReturnType<typeof provisionProject>>;
  const list = async (query: string) => {
    const res = await request(`${gateway.url}/api/v1/events${query}`, { token: p.apiKey });
    expect(res.status).toBe(200);
    return { meta: res.body.meta, exact: res.headers.get('x-total-count-exact'), data: res.body.data as { type: string; labels: string[] }[] };
  };

  beforeAll(async () => {
    gateway = await startTestGateway();
    p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    await gateway.deps.pool.query(
      `WITH blocks AS (SELECT nextval('event_id_blocks') AS start FROM generate_series(1, $2::int / 1000 + 1)),
            ids AS (SELECT start + o AS id, row_number() OVER (ORDER BY start, o) AS n FROM blocks, generate_series(0, 999) o),
            inserted AS (
              INSERT INTO events (id, project_key, type, name, occurred_at, received_at, labels)
              SELECT id, $1, CASE WHEN n <= 50 THEN 'error' ELSE 'metric' END, 'x', now() - n * interval '1 second', now(),
                     CASE WHEN n <= 50 THEN ARRAY['few'] ELSE ARRAY['bulk'] END
                FROM ids WHERE n <= $2
              RETURNING received_at)
       INSERT INTO project_monthly_usage (project_key, month, event_count)
       SELECT $1, date_trunc('month', received_at AT TIME ZONE 'UTC')::date, count(*) FROM inserted GROUP BY 2`,
      [p.projectKey, STORED],
    );
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('counts an unfiltered list exactly from the per-project counters', async () => {
    const res = await list('?per_page=100');
    expect(res.meta).toEqual({ current_page: 1, total_pages: Math.ceil(STORED / 100), total_count: STORED, per_page: 100 });
    expect(res.exact).toBe('true');
  });

  it('counts a filter matching fewer than COUNT_CAP exactly', async () => {
    const res = await list('?type=error');
    expect(res.meta).toEqual({ current_page: 1, total_pages: 2, total_count: 50, per_page: 25 });
    expect(res.exact).toBe('true');
  });

  it('stops counting at COUNT_CAP and says so in X-Total-Count-Exact; pages past it still answer', async () => {
    for (const query of ['?type=metric', '?label=bulk', `?since=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`]) {
      const res = await list(query);
      expect(res.meta).toEqual({ current_page: 1, total_pages: COUNT_CAP / 25, total_count: COUNT_CAP, per_page: 25 });
      expect(res.exact).toBe('false');
    }
    // The last page of all metric events lies past the counted total.
    const beyond = await list(`?type=metric&per_page=100&page=${Math.floor(METRICS / 100) + 1}`);
    expect(beyond.data.length).toBe(METRICS % 100);
    expect(beyond.data.every((e) => e.type === 'metric')).toBe(true);
  });
});
