/**
 * Gathers the calls made in one turn of the event loop and hands them to
 * `flush` together. kafkajs gives every batch of a fetch to its workers in one
 * turn (fetcher → workerQueue.push → each worker's handler, synchronously up
 * to the consumer's `eachBatch`), so the batches of one fetch meet here and can
 * share one transaction.
 */
export class TurnGatherer<E, R> {
  private pending: { entry: E; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];

  /** `flush` answers one result per entry, in order. */
  constructor(private readonly flush: (entries: E[]) => Promise<R[]>) {}

  join(entry: E): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.run());
      this.pending.push({ entry, resolve, reject });
    });
  }

  private async run(): Promise<void> {
    const group = this.pending;
    this.pending = [];
    try {
      const results = await this.flush(group.map((g) => g.entry));
      group.forEach((g, i) => g.resolve(results[i]!));
    } catch (error) {
      for (const g of group) g.reject(error);
    }
  }
}
