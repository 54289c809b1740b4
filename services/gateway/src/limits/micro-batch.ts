/**
 * Runs operations submitted concurrently as one call: everything submitted in the
 * same turn of the event loop, plus everything that arrived while the previous
 * call was in flight, goes in the next call (group commit). Under load a single
 * call serves dozens of requests, so Redis does one round trip and one script
 * run for all of them; when idle, an operation waits only for the current turn.
 */
export class MicroBatcher<Op, Result> {
  private queue: { op: Op; resolve: (r: Result) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = false;
  private scheduled = false;

  constructor(
    private readonly run: (ops: Op[]) => Promise<Result[]>,
    private readonly maxOps = 500,
    private readonly onBatch?: (size: number) => void,
  ) {}

  submit(op: Op): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight || this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxOps);
    this.inFlight = true;
    this.onBatch?.(batch.length);
    try {
      const results = await this.run(batch.map((b) => b.op));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      this.inFlight = false;
      // What queued meanwhile goes at once: it has already waited one call.
      if (this.queue.length > 0) void this.flush();
    }
  }
}
