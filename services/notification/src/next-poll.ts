/**
 * When the delivery schedule is read next: the earliest time anyone asked for.
 * The dispatcher asks for the moment a retry it scheduled falls due, and after
 * each read of the schedule for the next due time Postgres holds (bounded, see
 * `afterRead`), so an idle service sleeps instead of polling.
 */
export class NextPoll {
  private timer: NodeJS.Timeout | undefined;
  private at = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly poll: () => void,
    private readonly bounds: { minMs: number; maxMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Poll at `at` (ms since the epoch) unless a poll is planned sooner. */
  planAt(at: number): void {
    if (this.stopped || at >= this.at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = Number.POSITIVE_INFINITY;
        if (!this.stopped) this.poll();
      },
      Math.max(0, at - this.now()),
    );
  }

  /**
   * After a read of the schedule: the next due delivery is `dueInMs` away
   * (undefined: none pending). Not sooner than `minMs` (a due delivery another
   * instance holds would make it spin), not later than `maxMs`: what other
   * instances schedule after this read (a crashed one's retries) is picked up
   * within that.
   */
  afterRead(dueInMs: number | undefined): void {
    const delay = Math.min(Math.max(dueInMs ?? Number.POSITIVE_INFINITY, this.bounds.minMs), this.bounds.maxMs);
    this.planAt(this.now() + delay);
  }

  /** The time of the planned poll (ms since the epoch), or undefined. */
  planned(): number | undefined {
    return this.timer === undefined ? undefined : this.at;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
