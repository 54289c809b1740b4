import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool, migrateAll } from '@pulseboard/db';
import { createScratchDatabase, waitFor } from '@pulseboard/test-kit';
import { pendingReplays, pruneReplays } from './replay.ts';

/**
 * tile_replays does not grow without bound: finished requests go an hour
 * after they finished, pending ones nobody withdrew (their gateway died) five
 * minutes after they were made, and those are never applied. A database of
 * its own, so the table holds only this test's rows.
 */
describe('tile_replays retention', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, process.cwd());
    pool = createPool({ connectionString: database.url, applicationName: 'replay-retention-test', max: 3 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** A request made `requestedAgo` ms ago, finished `finishedAgo` ms ago unless pending. */
  const request = async (label: string, status: string, requestedAgo: number, finishedAgo?: number) =>
    (
      await pool.query<{ id: number }>(
        `INSERT INTO tile_replays (tile_id, project_key, since, revision, status, requested_at, finished_at)
         VALUES (1, $1, now() - interval '1 hour', 1, $2, now() - $3 * interval '1 millisecond', now() - $4 * interval '1 millisecond') RETURNING id::int`,
        [label, status, requestedAgo, finishedAgo ?? null],
      )
    ).rows[0]!.id;
  const MIN = 60_000;

  it('deletes finished rows older than an hour and abandoned pending ones, keeps the rest, and never hands out an abandoned request', async () => {
    await request('done-old', 'done', 62 * MIN, 61 * MIN);
    await request('failed-old', 'failed', 90 * MIN, 89 * MIN);
    await request('cancelled-old', 'cancelled', 61 * MIN, 61 * MIN);
    await request('abandoned', 'pending', 6 * MIN);
    // Made long ago but finished recently (a slow apply): kept from its finish.
    await request('done-recent', 'done', 70 * MIN, 50 * MIN);
    await request('cancelled-recent', 'cancelled', MIN, MIN);
    const waiting = await request('pending-now', 'pending', 0);

    expect((await pendingReplays(pool)).map((r) => r.id)).toEqual([waiting]);
    expect(await pruneReplays(pool)).toEqual({ finished: 3, abandoned: 1 });
    const left = await pool.query<{ project_key: string }>('SELECT project_key FROM tile_replays ORDER BY id');
    expect(left.rows.map((r) => r.project_key)).toEqual(['done-recent', 'cancelled-recent', 'pending-now']);
    expect(await pruneReplays(pool)).toEqual({ finished: 0, abandoned: 0 });
  });

  it('leaves a request an engine is taking until it commits, then keeps its outcome', async () => {
    const id = await request('taken-late', 'pending', 6 * MIN);
    const engine = await pool.connect();
    try {
      await engine.query('BEGIN');
      await engine.query("SELECT 1 FROM tile_replays WHERE id = $1 AND status = 'pending' FOR UPDATE", [id]);
      const pruning = pruneReplays(pool);
      const blocked = async () =>
        (
          await pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'replay-retention-test' AND wait_event_type = 'Lock'",
          )
        ).rows[0]!.n;
      await waitFor(async () => (await blocked()) === 1, { timeoutMs: 10_000, what: "the prune waiting on the engine's lock" });
      await engine.query("UPDATE tile_replays SET status = 'done', result = '{}', finished_at = now() WHERE id = $1", [id]);
      await engine.query('COMMIT');
      expect(await pruning).toEqual({ finished: 0, abandoned: 0 });
    } finally {
      engine.release();
    }
    expect((await pool.query('SELECT status FROM tile_replays WHERE id = $1', [id])).rows).toEqual([{ status: 'done' }]);
  });
});
