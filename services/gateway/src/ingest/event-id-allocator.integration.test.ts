import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '@pulseboard/db';
import { TEST_DATABASE_URL } from '@pulseboard/test-kit';
import { nextEventIdBlocks } from '../repositories/event-ids.ts';
import { EventIdAllocator, EVENT_ID_BLOCK_SIZE } from './event-id-allocator.ts';

describe('event ids from Postgres sequence blocks', () => {
  const pool = createPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-ids' });
  afterAll(() => pool.end());
  const fromPostgres = () => new EventIdAllocator((n) => nextEventIdBlocks(pool, n), { minRatePerSecond: 500, seconds: 2 });

  it('never hands out an id twice, across concurrent callers and allocators (gateway instances)', async () => {
    const a = fromPostgres();
    const b = fromPostgres();
    const ids = await Promise.all(Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? a : b).allocate()));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
  });

  it('a restarted allocator continues above every id given before (no reuse after restart)', async () => {
    const before = fromPostgres();
    const first = await Promise.all(Array.from({ length: EVENT_ID_BLOCK_SIZE + 10 }, () => before.allocate()));
    const restarted = fromPostgres();
    const next = await restarted.allocate();
    expect(next).toBeGreaterThan(Math.max(...first));
  });

  it('reserves many blocks in one Postgres round trip, not one per block', async () => {
    // Counts this allocator's own reservations: the sequence is shared with tests running alongside.
    const reservations: number[] = [];
    const allocator = new EventIdAllocator(
      (n) => {
        reservations.push(n);
        return nextEventIdBlocks(pool, n);
      },
      { minRatePerSecond: 1000, seconds: 10 },
    );
    await allocator.fill();
    expect(reservations).toEqual([10]);
    expect(allocator.reserve).toBe(10 * EVENT_ID_BLOCK_SIZE);
    const ids = await allocator.allocateMany(9 * EVENT_ID_BLOCK_SIZE);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
