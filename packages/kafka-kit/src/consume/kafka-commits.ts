import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

/**
 * Offsets committed to Kafka by time, not after every batch: kafkajs' autoCommit commits after every
 * batch whatever its autoCommitInterval says, one OffsetCommit round trip per batch, which at a low
 * rate is one per message. A partition's offset (set only once its batch's effects are durable) waits
 * here for the timer, or for `flush` when the consumer stops; `eager` commits a partition at once
 * when its last commit is older than the interval (an idle partition shows no stale lag).
 */
export class KafkaCommits {
  private readonly uncommitted = new Map<number, string>();
  private readonly committedAt = new Map<number, number>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly topic: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly eager: boolean,
  ) {
    if (intervalMs > 0) {
      this.timer = setInterval(() => void this.commit([...this.uncommitted.keys()]), intervalMs);
      this.timer.unref();
    }
  }

  /** The partition's effects are durable up to `nextOffset`. */
  async mark(partition: number, nextOffset: string): Promise<void> {
    this.uncommitted.set(partition, nextOffset);
    if (this.intervalMs === 0 || (this.eager && Date.now() - (this.committedAt.get(partition) ?? 0) >= this.intervalMs)) await this.commit([partition]);
  }

  /** Partitions with an offset waiting for the timer. */
  pending(): number[] {
    return [...this.uncommitted.keys()];
  }

  /**
   * A rebalance can move a partition away before the timer commits it: its new owner repeats at most
   * that interval's batches. What is pending for a partition no longer ours is dropped, never
   * committed by a member that no longer owns it.
   */
  forget(partition: number): void {
    this.uncommitted.delete(partition);
  }

  /** Commits what is pending and stops the timer (while still in the group: the next start is as current as can be). */
  async flush(): Promise<void> {
    clearInterval(this.timer);
    await this.commit([...this.uncommitted.keys()]);
  }

  private async commit(partitions: number[]): Promise<void> {
    const offsets = partitions.flatMap((partition) => {
      const offset = this.uncommitted.get(partition);
      if (offset === undefined) return [];
      this.uncommitted.delete(partition);
      this.committedAt.set(partition, Date.now());
      return [{ topic: this.topic, partition, offset }];
    });
    if (offsets.length === 0) return;
    await this.consumer
      .commitOffsets(offsets)
      .catch((error: unknown) =>
        this.logger.warn({ event: 'kafka_commit_failed', topic: this.topic, partitions: offsets.map((o) => o.partition), err: error }),
      );
  }
}
