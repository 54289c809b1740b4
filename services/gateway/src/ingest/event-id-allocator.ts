import { PulseboardError } from '@pulseboard/contracts';

/** Must equal the INCREMENT of the `event_id_blocks` sequence (gateway migration). */
export const EVENT_ID_BLOCK_SIZE = 1000;
/** At most this many blocks in one reservation round trip. */
const MAX_BLOCKS_PER_RESERVATION = 100;
/** How long a measured rate counts: the busiest second of the last ten sizes the reserve. */
const RATE_WINDOW_SECONDS = 10;
/** After a failed reservation, the next waits this long, doubling up to the cap (Postgres is down: no round trip per request). */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 1000;

export interface EventIdReserveOptions {
  /** The ingest rate (events/s) the reserve covers at least, whatever was measured. */
  minRatePerSecond: number;
  /** How long the reserve lasts at that rate (or at the measured one, when higher): how long ingest rides out a Postgres outage. */
  seconds: number;
  /** Never more ids held than this (a burst measured once must not reserve without bound). */
  maxIds: number;
  now?: () => number;
}

export const DEFAULT_EVENT_ID_RESERVE: EventIdReserveOptions = { minRatePerSecond: 1000, seconds: 15, maxIds: 1_000_000 };

/**
 * Hands out event ids before events enter Kafka, so `/ingest` can return them.
 * Ids come in blocks of 1000 reserved for this process alone from a Postgres
 * sequence; a sequence never goes back, so an id is never reused after any
 * restart (ids left in a block at exit are simply skipped).
 *
 * The process holds a reserve of blocks sized by rate × time: enough for
 * `seconds` at the higher of `minRatePerSecond` and the busiest second
 * measured lately, refilled in the background (one round trip for many
 * blocks) whenever it falls below that. The hot path never waits on Postgres
 * while the reserve lasts, so ingest goes on through a Postgres outage of
 * that length; once it is spent, requests are refused as retryable
 * (`event_ids_unavailable`, 503) without a round trip each while Postgres
 * stays down, and the reserve fills again as soon as it answers.
 */
export class EventIdAllocator {
  /** Reserved ranges in the order they are handed out: [next, end). */
  private readonly blocks: { next: number; end: number }[] = [];
  private held = 0;
  private refilling: Promise<void> | undefined;
  private retryAt = 0;
  private retryDelayMs = 0;
  private lastError: unknown;
  /** Ids taken per second, over the last RATE_WINDOW_SECONDS. */
  private readonly taken = new Map<number, number>();
  private readonly options: Required<EventIdReserveOptions>;

  /** `reserveBlocks(n)`: the first ids of `n` newly reserved blocks (repositories/event-ids.ts). */
  constructor(
    private readonly reserveBlocks: (count: number) => Promise<number[]>,
    options: Partial<EventIdReserveOptions> = {},
  ) {
    this.options = { ...DEFAULT_EVENT_ID_RESERVE, now: Date.now, ...options };
  }

  /** Ids held now (for tests and metrics). */
  get reserve(): number {
    return this.held;
  }

  /** The reserve this process aims to hold now. */
  target(): number {
    const second = Math.floor(this.options.now() / 1000);
    let peak = 0;
    for (const [s, n] of this.taken) {
      if (s <= second - RATE_WINDOW_SECONDS) this.taken.delete(s);
      else peak = Math.max(peak, n);
    }
    return Math.min(this.options.maxIds, Math.ceil(Math.max(this.options.minRatePerSecond, peak) * this.options.seconds));
  }

  /** Fills the reserve now (at start-up: the first requests find it full). */
  fill(): Promise<void> {
    return this.refill(1, true);
  }

  /** `count` ids; without waiting while the reserve has them (the usual case, and through a Postgres outage). */
  async allocateMany(count: number): Promise<number[]> {
    while (this.held < count) {
      // Postgres failed us a moment ago: refuse at once rather than queue every request behind a round trip.
      if (this.refilling === undefined && this.options.now() < this.retryAt) throw this.unavailable();
      await this.refill(count, true);
      if (this.held < count && this.lastError !== undefined) throw this.unavailable();
    }
    const ids: number[] = [];
    while (ids.length < count) ids.push(this.take());
    this.count(count);
    void this.refill(0, false);
    return ids;
  }

  async allocate(): Promise<number> {
    return (await this.allocateMany(1))[0]!;
  }

  private take(): number {
    const block = this.blocks[0]!;
    const id = block.next++;
    this.held--;
    if (block.next >= block.end) this.blocks.shift();
    if (id > Number.MAX_SAFE_INTEGER) throw new Error('event id space exhausted');
    return id;
  }

  private count(n: number): void {
    const second = Math.floor(this.options.now() / 1000);
    this.taken.set(second, (this.taken.get(second) ?? 0) + n);
  }

  /**
   * Tops the reserve up to its target (and at least `wanted`): one
   * reservation at a time, none while a failed one's backoff lasts. `wait`: resolves when the one under way (or
   * started) ends; otherwise in the background (its failure is kept for the
   * requests the reserve cannot serve).
   */
  private refill(wanted: number, wait: boolean): Promise<void> {
    if (this.refilling !== undefined) return wait ? this.refilling : Promise.resolve();
    const missing = Math.max(this.target(), wanted) - this.held;
    if (missing <= 0) return Promise.resolve();
    if (this.options.now() < this.retryAt) return Promise.resolve();
    const blocks = Math.min(MAX_BLOCKS_PER_RESERVATION, Math.max(1, Math.ceil(missing / EVENT_ID_BLOCK_SIZE)));
    const refilling = this.reserveBlocks(blocks).then(
      (starts) => {
        for (const start of [...starts].sort((a, b) => a - b)) this.blocks.push({ next: start, end: start + EVENT_ID_BLOCK_SIZE });
        this.held += starts.length * EVENT_ID_BLOCK_SIZE;
        this.retryDelayMs = 0;
        this.retryAt = 0;
        this.lastError = undefined;
      },
      (error: unknown) => {
        this.lastError = error;
        this.retryDelayMs = Math.min(RETRY_MAX_MS, this.retryDelayMs === 0 ? RETRY_FIRST_MS : this.retryDelayMs * 2);
        this.retryAt = this.options.now() + this.retryDelayMs;
      },
    );
    this.refilling = refilling.finally(() => {
      this.refilling = undefined;
      // Still short (a reservation is capped, or the target grew meanwhile): the next round at once.
      if (this.retryAt === 0 && this.held < this.target()) void this.refill(0, false);
    });
    return wait ? this.refilling : Promise.resolve();
  }

  private unavailable(): PulseboardError {
    // Postgres unreachable: the request is refused as retryable (503), not as our bug (500).
    return new PulseboardError('event_ids_unavailable', { message: 'no event ids can be allocated (Postgres is unavailable)', cause: this.lastError });
  }
}
