import { PulseboardError } from '@pulseboard/contracts';

/** Must equal the INCREMENT of the `event_id_blocks` sequence (gateway migration). */
export const EVENT_ID_BLOCK_SIZE = 1000;

/**
 * Hands out event ids before events enter Kafka, so `/ingest` can return them.
 * Each reservation is a block of 1000 ids for this process alone; sequences
 * never go back, so an id is never reused after any restart (unused ids of a
 * block are simply skipped). The next block is fetched while the current one
 * still has a fifth left, so the hot path almost never waits on Postgres.
 */
export class EventIdAllocator {
  private next = 0;
  private end = 0; // exclusive
  private upcoming: Promise<number> | undefined;

  /** `reserveBlock`: the first id of a newly reserved block (repositories/event-ids.ts). */
  constructor(private readonly reserveBlock: () => Promise<number>) {}

  /** `count` ids; without waiting when the current block has them (the usual case). */
  async allocateMany(count: number): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < count) {
      if (this.next < this.end) ids.push(this.take());
      else ids.push(await this.allocate());
    }
    return ids;
  }

  async allocate(): Promise<number> {
    while (this.next >= this.end) {
      const pending = (this.upcoming ??= this.fetchBlock());
      let start: number;
      try {
        start = await pending;
      } catch (error) {
        if (this.upcoming === pending) this.upcoming = undefined;
        throw error;
      }
      // Of all callers waiting on this block, the first to wake installs it.
      if (this.upcoming === pending) {
        this.upcoming = undefined;
        this.next = start;
        this.end = start + EVENT_ID_BLOCK_SIZE;
      }
    }
    return this.take();
  }

  private take(): number {
    const id = this.next++;
    if (id > Number.MAX_SAFE_INTEGER) throw new Error('event id space exhausted');
    if (this.upcoming === undefined && this.end - this.next < EVENT_ID_BLOCK_SIZE / 5) {
      const prefetch = this.fetchBlock();
      this.upcoming = prefetch;
      prefetch.catch(() => {
        if (this.upcoming === prefetch) this.upcoming = undefined;
      });
    }
    return id;
  }

  private async fetchBlock(): Promise<number> {
    try {
      return await this.reserveBlock();
    } catch (error) {
      // Postgres unreachable: the request is refused as retryable (503), not as our bug (500).
      throw new PulseboardError('event_ids_unavailable', { message: 'no event ids can be allocated (Postgres is unavailable)', cause: error });
    }
  }
}
