import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import { insertClaimedDeliveries, markDelivered, nextDueInMs } from './repository.ts';

/**
 * The idle dispatcher sleeps until the schedule's next due delivery
 * (dispatcher.ts, next-poll.ts): what Postgres answers for "when" decides how
 * often an idle service reads the schedule. A database of its own, so no other
 * test's pending deliveries count.
 */
describe('the delivery schedule: when the next delivery falls due', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  const insert = (id: string, inMs: number, status = 'pending') =>
    pool.query(
      `INSERT INTO notification_deliveries (id, service_id, account_id, kind, payload, status, next_attempt_at) VALUES ($1, 1, 1, 'test', '{}', $2, now() + $3 * interval '1 millisecond')`,
      [id, status, inMs],
    );

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, process.cwd());
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('nothing pending: no due time (an idle service reads again only after NOTIFY_IDLE_POLL_MS), not "due now"', async () => {
    expect(await nextDueInMs(pool)).toBeUndefined();
    await insert('done', -1000, 'delivered');
    await insert('gave-up', -1000, 'failed');
    expect(await nextDueInMs(pool)).toBeUndefined();
  });

  it('the earliest pending delivery: how far ahead it is, and 0 once it is overdue', async () => {
    await insert('later', 3_600_000);
    await insert('sooner', 60_000);
    const dueIn = await nextDueInMs(pool);
    expect(dueIn).toBeGreaterThan(0);
    expect(dueIn).toBeLessThanOrEqual(60_000);
    await insert('overdue', -5000);
    expect(await nextDueInMs(pool)).toBe(0);
  });

  it('the statements run for every batch are prepared once per connection, not parsed and planned for each batch', async () => {
    const one = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      for (const id of ['p1', 'p2']) {
        const sent = await insertClaimedDeliveries(
          one,
          [{ id, serviceId: 1, accountId: 1, kind: 'test', tileId: null, eventId: null, position: null, payload: {} }],
          30_000,
        );
        expect(sent.map((d) => d.id)).toEqual([id]);
        await markDelivered(one, [{ id, responseStatus: 200 }]);
      }
      // The one connection's named statements: the insert, the services' read and the mark, each once.
      const { rows } = await one.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement');
      expect(rows.map((r) => r.statement.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
        'SELECT id::text',
        'UPDATE notification_deliveries',
        'WITH inserted',
      ]);
    } finally {
      await one.end();
    }
  });
});
