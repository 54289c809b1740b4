import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@pulseboard/db';
import { provisionProject, request, TEST_ADMIN_TOKEN, TEST_DATABASE_URL } from '@pulseboard/test-kit';
import { startTestGateway } from '../../test/test-gateway.ts';

const rule = { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };
const MINUTE = 60_000;

/**
 * GET /tiles/:id/history reads the rule engine's tile_state_history. The rows
 * are written here as the engine writes them (the pipeline's own run is in
 * tests/e2e/tile-preview.integration.test.ts), so the window, order and
 * pages are shown on known times.
 */
describe('GET /api/v1/tiles/:id/history', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let pool: Pool;
  const url = (path: string) => `${gateway.url}${path}`;

  beforeAll(async () => {
    gateway = await startTestGateway();
    pool = createPool({ connectionString: TEST_DATABASE_URL, max: 2, applicationName: 'tile-history-test' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await pool?.end();
  });

  async function record(tileId: number, projectKey: string, changes: { minutesAgo: number; status: string; value: unknown; version: number }[]) {
    for (const c of changes) {
      await pool.query(
        `INSERT INTO tile_state_history (tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause)
         VALUES ($1, $2, 'CPU', $3, 'unknown', $4, 'null', $5, NULL, $6, 'event')`,
        [tileId, projectKey, c.status, JSON.stringify(c.value), c.version, new Date(Date.now() - c.minutesAgo * MINUTE)],
      );
    }
  }

  it('lists the last hour newest first in the list wrapper, with the unit of the tile settings; since, until and pages narrow it', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const tile = (await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'CPU', kind: 'metric', rule, settings: { unit: 'percent' } } })).body
      .data;
    await record(tile.id, p.projectKey, [
      { minutesAgo: 120, status: 'ok', value: 10, version: 1 },
      { minutesAgo: 50, status: 'warning', value: 85, version: 2 },
      { minutesAgo: 20, status: 'critical', value: 97, version: 3 },
      { minutesAgo: 5, status: 'ok', value: 40, version: 4 },
    ]);

    const lastHour = await request(url(`/api/v1/tiles/${tile.id}/history`), { token: p.userToken });
    expect(lastHour.status).toBe(200);
    expect(lastHour.body.data.map((e: { version: number }) => e.version)).toEqual([4, 3, 2]);
    expect(lastHour.body.data[0]).toEqual({
      position: expect.any(Number),
      tile_id: tile.id,
      status: 'ok',
      previous_status: 'unknown',
      value: 40,
      unit: 'percent',
      version: 4,
      event_id: null,
      cause: 'event',
      changed_at: expect.any(String),
    });
    expect(lastHour.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 3, per_page: 25 });

    const since = new Date(Date.now() - 180 * MINUTE).toISOString();
    const until = new Date(Date.now() - 10 * MINUTE).toISOString();
    const span = await request(
      url(`/api/v1/tiles/${tile.id}/history?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}&per_page=2&page=2`),
      { token: p.apiKey },
    );
    expect(span.status).toBe(200);
    expect(span.body.data.map((e: { version: number }) => e.version)).toEqual([1]);
    expect(span.body.meta).toEqual({ current_page: 2, total_pages: 2, total_count: 3, per_page: 2 });
  });

  it("without a unit of its own, each change shows its event's `unit` attribute: a string, of the project's own event, while it is stored", async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const other = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const tile = (await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'CPU', kind: 'metric', rule } })).body.data;
    const now = Date.now();
    await pool.query('SELECT store_ensure_day_partitions($1::date[])', [[now - 86_400_000, now].map((t) => new Date(t).toISOString().slice(0, 10))]);
    // Ids far above what the gateway allocates; the store's events written as the store writes them.
    const id = 2 ** 50 + Math.floor(Math.random() * 1e9) * 4;
    const store = (eventId: number, projectKey: string, unit: unknown, msAgo: number) =>
      pool.query(`INSERT INTO events (id, project_key, type, name, occurred_at, received_at, attributes) VALUES ($1, $2, 'metric', 'cpu_usage', $3, $3, $4)`, [
        eventId,
        projectKey,
        new Date(now - msAgo),
        JSON.stringify({ value: 90, unit }),
      ]);
    await store(id, p.projectKey, 'ms', 1000);
    await store(id, other.projectKey, 'stolen', 2000);
    await store(id + 1, p.projectKey, 42, 1000);
    // Oldest first, as the engine appends them (the list is newest first by position).
    const changes: [number | null, number][] = [
      [null, 1],
      [id + 2, 2],
      [id + 1, 3],
      [id, 4],
    ];
    for (const [eventId, version] of changes)
      await pool.query(
        `INSERT INTO tile_state_history (tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause)
         VALUES ($1, $2, 'CPU', 'warning', 'ok', '90', '10', $3, $4, $5, 'event')`,
        [tile.id, p.projectKey, version, eventId, new Date(now - (10 - version) * MINUTE)],
      );

    const history = await request(url(`/api/v1/tiles/${tile.id}/history`), { token: p.userToken });
    expect(history.status).toBe(200);
    expect(history.body.data.map((e: { version: number; unit: string | null }) => [e.version, e.unit])).toEqual([
      [4, 'ms'],
      [3, null],
      [2, null],
      [1, null],
    ]);
  });

  it('refuses a window over a day or the wrong way round with 400 validation_error, and another account’s tile is 404', async () => {
    const p = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const other = await provisionProject(gateway.url, TEST_ADMIN_TOKEN);
    const tile = (await request(url('/api/v1/tiles'), { token: p.apiKey, body: { name: 'CPU', kind: 'metric', rule } })).body.data;

    const tooLong = await request(url(`/api/v1/tiles/${tile.id}/history?since=2026-01-01T00:00:00Z&until=2026-01-02T00:00:01Z`), { token: p.userToken });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'validation_error', details: { since: ['must be at most 24 h before until'] } });
    const backwards = await request(url(`/api/v1/tiles/${tile.id}/history?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z`), { token: p.userToken });
    expect(backwards.body.error).toMatchObject({ code: 'validation_error', details: { until: ['must be after since'] } });

    expect((await request(url(`/api/v1/tiles/${tile.id}/history`), { token: other.userToken })).status).toBe(404);
    expect((await request(url(`/api/v1/tiles/${tile.id}/history`), { token: other.apiKey })).status).toBe(404);
    const empty = await request(url(`/api/v1/tiles/${tile.id}/history`), { token: p.apiKey });
    expect(empty.body).toEqual({ data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 } });
  });
});
