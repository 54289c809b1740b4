import type { Logger } from 'pino';
import type { OutboxMessage, RelayBatch, RelaySource } from '@pulseboard/contracts';
import type { BatchingProducer } from './batching-producer.ts';
import { errorFields, RETRY_MAX_BACKOFF_MS } from './transient.ts';

export interface OutboxRelayOptions {
  producer: BatchingProducer;
  logger: Logger;
  sources: RelaySource[];
  /** The source partitions this instance owns now. */
  partitions: () => number[];
  /** A sweep for rows nobody announced (a crashed owner's): this often. */
  sweepIntervalMs?: number;
  batchSize?: number;
  /** After each round of a source: messages sent, and seconds from its read to Kafka's acknowledgement of the send. */
  onRelayed?: (messages: number, seconds: number) => void;
}

/**
 * Sends what its sources hold, in order, and marks it sent once Kafka
 * acknowledged it. `notify()` after each commit sends at once; a periodic
 * sweep picks up what an earlier owner left. One drain at a time, so a
 * partition's messages never overtake each other. Marking sent is written
 * behind the sends (the sources remember what they handed out), so the next
 * round does not wait for it. At least once: a crash between a send and its
 * mark sends those messages again, so every message carries what lets a
 * reader drop a duplicate (a tile change's position).
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The marks not yet written, one after the other. */
  private marking: Promise<void> = Promise.resolve();
  /** Drains failed in a row (Postgres or Kafka away): the next waits a capped backoff, whatever asks for it. */
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** A drain asked for by the code running now, begun once it is done (a microtask). */
  private scheduled = false;
  /** Sources told of new rows since their last drain began. */
  private readonly dirty = new Set<RelaySource>();

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    const sweep = () => {
      if (this.stopped) return;
      this.notify();
      this.timer = setTimeout(sweep, this.options.sweepIntervalMs ?? 1000);
      this.timer.unref();
    };
    sweep();
  }

  /**
   * Sends what is waiting now in `sources` (default: all of them; a commit that wrote to one source
   * names it, so the others are not read for nothing); coalesces calls that arrive while a send is
   * under way.
   */
  notify(sources: readonly RelaySource[] = this.options.sources): void {
    if (this.stopped) return;
    for (const source of sources) this.dirty.add(source);
    if (this.retryTimer !== undefined || this.scheduled) return;
    // Begun once the code running now is done, not at once: the commits it announces (a shared
    // transaction's partitions each announce theirs, one after the other) join one drain, hence one
    // produce request, not one for the first and one for the rest. A microtask, not a later turn:
    // the first message still leaves without waiting for other I/O.
    this.scheduled = true;
    queueMicrotask(() => this.beginScheduled());
  }

  /** Begins the drain a notify asked for, if not begun yet (flush and stop begin it at once and wait for it). */
  private beginScheduled(): void {
    if (!this.scheduled) return;
    this.scheduled = false;
    void this.drainOnce();
  }

  /** The one drain under way, or a new one; a call during a drain asks for one more after it. */
  private drainOnce(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .then(
        () => void (this.failures = 0),
        (error: unknown) => {
          // Nothing is lost (what was not marked sent is read again): try again after a capped backoff.
          this.failures++;
          const delay = Math.min(RETRY_MAX_BACKOFF_MS, 100 * 2 ** Math.min(this.failures, 10));
          this.options.logger.warn({ event: 'outbox_relay_failed', attempt: this.failures, retry_in_ms: delay, ...errorFields(error) });
          if (this.stopped) return;
          this.again = false;
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.notify();
          }, delay);
          this.retryTimer.unref();
        },
      )
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.drainOnce();
        }
      });
    return this.running;
  }

  /** The sources asked for side by side (they hold different messages; each keeps its own order), each drained in order. */
  private async drain(): Promise<void> {
    const sources = [...this.dirty];
    this.dirty.clear();
    try {
      await Promise.all(sources.map((source) => this.drainSource(source)));
    } catch (error) {
      // Read again after the backoff: what failed may have been left half sent.
      for (const source of sources) this.dirty.add(source);
      throw error;
    }
  }

  private async drainSource(source: RelaySource): Promise<void> {
    const limit = this.options.batchSize ?? 1000;
    for (;;) {
      const partitions = this.options.partitions();
      if (partitions.length === 0) return;
      const started = performance.now();
      const batch = await source.next(partitions, limit);
      if (batch === undefined) return;
      try {
        await this.send(batch.messages);
      } catch (error) {
        // Not sent (or not all): read again from what is marked sent.
        source.forget();
        throw error;
      }
      this.options.onRelayed?.(batch.messages.length, (performance.now() - started) / 1000);
      this.mark(source, batch);
      if (batch.messages.length < limit) return;
    }
  }

  private mark(source: RelaySource, batch: RelayBatch): void {
    this.marking = this.marking.then(() =>
      batch.acknowledge().catch((error: unknown) => {
        // Sent but not marked: read and send again (a duplicate) rather than leave the mark behind for good.
        source.forget();
        this.options.logger.warn({ event: 'outbox_mark_failed', ...errorFields(error) });
        this.notify();
      }),
    );
  }

  /** In order, one topic run at a time, so each key's messages keep their order. */
  private async send(messages: OutboxMessage[]): Promise<void> {
    let start = 0;
    while (start < messages.length) {
      let end = start + 1;
      while (end < messages.length && messages[end]!.topic === messages[start]!.topic) end++;
      const run = messages.slice(start, end);
      await this.options.producer.sendMany(
        run[0]!.topic,
        run.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      );
      start = end;
    }
  }

  /** Sends everything waiting now (after the drain under way), through the same one-at-a-time path, and marks it sent. */
  async flush(): Promise<void> {
    this.beginScheduled();
    await this.running;
    for (const source of this.options.sources) this.dirty.add(source);
    await this.drainOnce();
    await this.marking;
    await Promise.all(this.options.sources.map((source) => source.flush?.()));
  }

  /** Stops the sweep and waits for the send under way and its mark. Safe to call twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.beginScheduled();
    await this.running;
    await this.marking;
    // Held-back marks: written now, so a clean stop sends nothing twice after a restart.
    await Promise.all(
      this.options.sources.map((source) =>
        source.flush?.().catch((error: unknown) => this.options.logger.warn({ event: 'outbox_mark_failed', ...errorFields(error) })),
      ),
    );
  }
}
