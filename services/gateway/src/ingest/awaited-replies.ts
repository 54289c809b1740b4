/**
 * Replies that arrive on a Kafka topic every gateway instance reads (a
 * fan-out consumer), handed to the request of this instance that waits for
 * its id. Replies nobody here waits for belong to another instance.
 */
export class AwaitedReplies<T> {
  private readonly waiting = new Map<string, (value: T) => void>();

  receive(id: string, value: T): void {
    this.waiting.get(id)?.(value);
  }

  /** Starts waiting before the request is sent, so a fast reply is not missed; undefined past the bound. */
  watch(id: string): { result(timeoutMs: number): Promise<T | undefined> } {
    let arrived: T | undefined;
    let wake: () => void = () => undefined;
    this.waiting.set(id, (value) => {
      arrived = value;
      wake();
    });
    return {
      result: async (timeoutMs) => {
        if (arrived === undefined) {
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, timeoutMs);
          });
          clearTimeout(timer);
        }
        this.waiting.delete(id);
        return arrived;
      },
    };
  }
}
