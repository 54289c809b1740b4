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

  /** Runs `work` holding every one of `partitions`' turns, taken in ascending order (two callers never wait on each other in a circle). */
  runAll<R>(partitions: readonly number[], work: () => Promise<R>): Promise<R> {
    const sorted = [...new Set(partitions)].sort((a, b) => a - b);
    const hold = (i: number): Promise<R> => (i === sorted.length ? work() : this.run(sorted[i]!, () => hold(i + 1)));
    return hold(0);
  }

  /** Resolves when the work queued so far has finished. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
