/**
 * The gateway's one way of waiting for replies that arrive on a Kafka topic
 * every instance reads (a fan-out consumer): the rule engine's outcomes of a
 * webhook request's events, a notification send's outcome. A request watches
 * its ids before it sends (so a fast reply is not missed), then waits,
 * bounded; replies nobody here waits for belong to another instance and are
 * ignored. A watch is always released: by its result, or by `cancel()` when
 * the request failed before waiting (a failed send).
 */
export interface ReplyWatch<K, V> {
  /** Every id's reply once all arrived, or undefined when `timeoutMs` passes first. Never rejects. */
  result(timeoutMs: number): Promise<ReadonlyMap<K, V> | undefined>;
  /** Stops waiting (the request failed, or the answer no longer matters). */
  cancel(): void;
}

interface Waiting<K, V> {
  remaining: Set<K>;
  replies: Map<K, V>;
  done: () => void;
}

export class ReplyWaiter<K, V> {
  private readonly byId = new Map<K, Waiting<K, V>>();

  /** Feeds one reply from the topic. */
  receive(id: K, value: V): void {
    const waiting = this.byId.get(id);
    if (waiting === undefined || !waiting.remaining.delete(id)) return;
    this.byId.delete(id);
    waiting.replies.set(id, value);
    if (waiting.remaining.size === 0) waiting.done();
  }

  /** Ids waited for now (a check that nothing leaks). */
  get waiting(): number {
    return this.byId.size;
  }

  watch(ids: readonly K[]): ReplyWatch<K, V> {
    let done: () => void = () => undefined;
    const complete = new Promise<void>((resolve) => (done = resolve));
    const waiting: Waiting<K, V> = { remaining: new Set(ids), replies: new Map(), done };
    for (const id of ids) this.byId.set(id, waiting);
    const cancel = () => {
      for (const id of waiting.remaining) if (this.byId.get(id) === waiting) this.byId.delete(id);
    };
    return {
      cancel,
      result: async (timeoutMs) => {
        if (waiting.remaining.size > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([complete, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
          clearTimeout(timer);
        }
        cancel();
        return waiting.remaining.size === 0 ? waiting.replies : undefined;
      },
    };
  }
}

/**
 * Sends a request whose one reply comes back on the topic, and waits for it
 * (bounded): watched before the send, so a fast reply is not missed; a send
 * that fails releases the watch before the error goes on, so no waiter stays
 * behind. Undefined when no reply came within `timeoutMs`.
 */
export async function sendAndAwaitReply<K, V>(waiter: ReplyWaiter<K, V>, id: K, send: () => Promise<unknown>, timeoutMs: number): Promise<V | undefined> {
  const watch = waiter.watch([id]);
  try {
    await send();
  } catch (error) {
    // Not sent: nothing will answer; the watch must not stay behind.
    watch.cancel();
    throw error;
  }
  return (await watch.result(timeoutMs))?.get(id);
}
