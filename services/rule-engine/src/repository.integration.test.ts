import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool, inTransaction, migrateAll } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import { claimHistoryStream, committedEntries, historySource, insertHistory, type HistoryRow } from './repository.ts';

/**
 * The relay sends a tile change from memory once its stream is read to the
 * end (`committedEntries`, offered after the commit), and from the history
 * otherwise: a reader must get the same bytes either way. A database of its
 * own, so the history holds only this test's rows.
 */
describe('tile changes from memory and from the history are the same messages', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  const TOPIC = 'tile-changes-under-test';

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, process.cwd());
    pool = createPool({ connectionString: database.url, applicationName: 'rule-engine-repository-test', max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('every field, header and position of what a commit wrote equals what reading it back gives', async () => {
    const stream = await inTransaction(pool, (tx) => claimHistoryStream(tx, { groupId: 'g', topic: 'events', partition: 0 }));
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
    const rows: HistoryRow[] = [
      {
        relayStream: stream,
        tileId: 11,
        projectKey: 'p1',
        tileName: 'Error rate',
        rulesRevision: 7,
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        change: {
          cause: 'event',
          status: 'critical',
          previous_status: 'ok',
          value: 0.30000000000000004,
          previous_value: 0.1,
          version: 3,
          event_id: 9_007_199_254_740_991,
          changed_at: at,
        },
      },
      {
        relayStream: stream,
        tileId: 12,
        projectKey: 'p1',
        tileName: 'Last deploy "v2" ✓',
        rulesRevision: 0,
        traceparent: null,
        change: {
          cause: 'time',
          status: 'unknown',
          previous_status: 'warning',
          value: null,
          previous_value: true,
          version: 1,
          event_id: null,
          changed_at: at + 1,
        },
      },
      {
        relayStream: stream,
        tileId: 13,
        projectKey: 'p2',
        tileName: '',
        rulesRevision: 1_000_000,
        traceparent: null,
        change: {
          cause: 'rule',
          status: 'ok',
          previous_status: 'unknown',
          value: 'deploy.finished',
          previous_value: -12.5,
          version: 2,
          event_id: 42,
          changed_at: at + 2,
        },
      },
    ];
    const positions = await inTransaction(pool, (tx) => insertHistory(tx, rows));
    expect(positions).toHaveLength(3);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const fromMemory = committedEntries(
      rows.map((row, i) => ({ ...row, position: positions[i]! })),
      TOPIC,
    );
    const batch = await historySource(pool, { groupId: 'g', eventsTopic: 'events', tileChangesTopic: TOPIC }).next([0], 100);
    expect(batch?.messages).toEqual(fromMemory.map((e) => e.message()));
    expect(fromMemory.map((e) => e.stream)).toEqual([stream, stream, stream]);
    expect(fromMemory.map((e) => JSON.parse(e.message().value).tile_id)).toEqual([11, 12, 13]);
    expect(fromMemory.map((e) => e.position)).toEqual(positions);
  });
});
