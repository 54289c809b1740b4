import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '@pulseboard/db';
import { TEST_DATABASE_URL } from '@pulseboard/test-kit';
import { EventIdAllocator, EVENT_ID_BLOCK_SIZE } from './event-id-allocator.ts';

describe('event ids from Postgres sequence blocks', () => {
  const pool = createPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-ids' });
  afterAll(() => pool.end());

  it('never hands out an id twice, across concurrent callers and allocators (gateway instances)', async () => {
    const a = new EventIdAllocator(pool);
    const b = new EventIdAllocator(pool);
    const ids = await Promise.all(Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? a : b).allocate()));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
  });

  it('a restarted allocator continues above every id given before (no reuse after restart)', async () => {
    const before = new EventIdAllocator(pool);
    const first = await Promise.all(Array.from({ length: EVENT_ID_BLOCK_SIZE + 10 }, () => before.allocate()));
    const restarted = new EventIdAllocator(pool);
    const next = await restarted.allocate();
    expect(next).toBeGreaterThan(Math.max(...first));
  });

  it('uses one Postgres round trip per block, not per event', async () => {
    const allocator = new EventIdAllocator(pool);
    const { rows: [start] } = await pool.query("SELECT last_value::bigint AS v FROM event_id_blocks");
    await Promise.all(Array.from({ length: 3 * EVENT_ID_BLOCK_SIZE }, () => allocator.allocate()));
    const { rows: [end] } = await pool.query("SELECT last_value::bigint AS v FROM event_id_blocks");
    // 3 blocks used, plus at most one prefetched (other tests may allocate concurrently, hence ≤ with slack).
    const blocks = (Number(end.v) - Number(start.v)) / EVENT_ID_BLOCK_SIZE;
    expect(blocks).toBeGreaterThanOrEqual(3);
    expect(blocks).toBeLessThan(3 * EVENT_ID_BLOCK_SIZE / 10);
  });
});
