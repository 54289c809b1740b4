/**
 * One piece of work at a time per partition: the consumer's batches, timers
 * and rule changes all write a partition's state, and must take turns.
 */
export class PartitionLocks {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<R>(partition: number, work: () => Promise<R>): Promise<R> {
    const previous = this.tails.get(partition) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(partition, tail);
    void tail.then(() => {
      if (this.tails.get(partition) === tail) this.tails.delete(partition);
    });
    return next;
  }

  /** Resolves when the work queued so far has finished. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
