import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject, request, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';
import { COUNT_CAP } from '@pulseboard/event-store';

const STORED = COUNT_CAP + 550;
const METRICS = STORED - 50;

/**
 * total_count past COUNT_CAP matches. The rows are written as the store writes
 * them (events, their label rows and the per-project daily counter in one statement), with
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
    // The last STORED seconds may reach back into yesterday: both days' partitions.
    await gateway.deps.pool.query("SELECT store_ensure_day_partitions(ARRAY[(now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date - 1])");
    await gateway.deps.pool.query(
      `WITH blocks AS (SELECT nextval('event_id_blocks') AS start FROM generate_series(1, $2::int / 1000 + 1)),
            ids AS (SELECT start + o AS id, row_number() OVER (ORDER BY start, o) AS n FROM blocks, generate_series(0, 999) o),
            inserted AS (
              INSERT INTO events (id, project_key, type, name, occurred_at, received_at, labels)
              SELECT id, $1, CASE WHEN n <= 50 THEN 'error' ELSE 'metric' END, 'x', now() - n * interval '1 second', now(),
                     CASE WHEN n <= 50 THEN ARRAY['few'] ELSE ARRAY['bulk'] END
                FROM ids WHERE n <= $2
              RETURNING id, occurred_at, labels),
            labelled AS (
              INSERT INTO event_labels (project_key, label, occurred_at, event_id)
              SELECT $1, unnest(labels), occurred_at, id FROM inserted)
       INSERT INTO project_daily_events (project_key, day, event_count)
       SELECT $1, (occurred_at AT TIME ZONE 'UTC')::date, count(*) FROM inserted GROUP BY 2`,
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

  it('reads a page and its total from one snapshot while the store commits batches', async () => {
    const q = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const READS = 40;
    let reading = true;
    // One event per transaction, events and counter together, as the store commits a batch,
    // for as long as the lists below are read.
    const writer = (async () => {
      while (reading) {
        await gateway.deps.pool.query(
          `WITH inserted AS (
             INSERT INTO events (id, project_key, type, name, occurred_at, received_at, labels)
             VALUES (nextval('event_id_blocks'), $1, 'metric', 'x', now(), now(), '{}') RETURNING occurred_at)
           INSERT INTO project_daily_events AS c (project_key, day, event_count)
           SELECT $1, (occurred_at AT TIME ZONE 'UTC')::date, 1 FROM inserted
           ON CONFLICT (project_key, day) DO UPDATE SET event_count = c.event_count + 1`,
          [q.projectKey],
        );
      }
    })();
    const seen: { count: number; rows: number }[] = [];
    try {
      for (let i = 0; i < READS; i++) {
        const res = await request(`${gateway.url}/api/v1/events?per_page=100`, { token: q.apiKey });
        expect(res.status).toBe(200);
        seen.push({ count: res.body.meta.total_count, rows: res.body.data.length });
      }
    } finally {
      reading = false;
      await writer;
    }
    // The writes went on throughout: the reads saw the total grow.
    expect(seen[READS - 1]!.count).toBeGreaterThan(seen[0]!.count);
    expect(seen.filter((s) => s.rows !== Math.min(s.count, 100))).toEqual([]);
  });
});
