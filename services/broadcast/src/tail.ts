import type { IngestedEvent, TailFilters } from '@pulseboard/contracts';

/** Where a tail sends: the client's connection. */
export interface TailSink {
  /** False while the client's unsent bytes are above the tail's share: events are skipped (counted), never queued. */
  roomForEvents(): boolean;
  send(frame: Buffer | string): void;
}

/** The filters of GET /events, on one event: equality on type, name, severity, channel; every label given present. */
export function matchesTail(filters: TailFilters, event: IngestedEvent): boolean {
  if (filters.type !== undefined && event.type !== filters.type) return false;
  if (filters.name !== undefined && event.name !== filters.name) return false;
  if (filters.severity !== undefined && event.severity !== filters.severity) return false;
  if (filters.channel !== undefined && event.channel !== filters.channel) return false;
  if (filters.label !== undefined) {
    const labels = event.labels ?? [];
    for (const l of filters.label) if (!labels.includes(l)) return false;
  }
  return true;
}

/**
 * One client's tail of one project: matching events at most `perSecond` a
 * second (a token bucket holding one second's worth), the rest counted and
 * reported as `skipped` messages, never queued. A client reading slowly gets
 * skips too (reason slow_client) rather than a growing buffer.
 */
export class Tail {
  private tokens: number;
  private refilled: number;
  private skipped = { rate: 0, slow_client: 0 };
  /** Events sent and skipped since the tail began (metrics, tests). */
  sent = 0;

  constructor(
    readonly project: string,
    readonly filters: TailFilters,
    readonly perSecond: number,
    private readonly sink: TailSink,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perSecond;
    this.refilled = now();
  }

  /** `frame` builds the event's message, once for every tail it goes to. Returns what became of it. */
  offer(event: IngestedEvent, frame: () => Buffer): 'sent' | 'skipped' | 'filtered' {
    if (!matchesTail(this.filters, event)) return 'filtered';
    const now = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.refilled) * this.perSecond) / 1000);
    this.refilled = now;
    if (this.tokens < 1) {
      this.skipped.rate++;
      return 'skipped';
    }
    if (!this.sink.roomForEvents()) {
      this.skipped.slow_client++;
      return 'skipped';
    }
    this.tokens -= 1;
    // What was skipped is said before the next event, so the client's count is in order with what it sees.
    this.flushSkipped();
    this.sink.send(frame());
    this.sent++;
    return 'sent';
  }

  /** Tells the client how many matching events it did not get since the last report (also called each second). */
  flushSkipped(): void {
    for (const reason of ['rate', 'slow_client'] as const) {
      const count = this.skipped[reason];
      if (count === 0) continue;
      this.skipped[reason] = 0;
      this.sink.send(JSON.stringify({ type: 'skipped', v: 1, project: this.project, count, reason }));
    }
  }
}
