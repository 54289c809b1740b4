import type { Consumer } from 'kafkajs';

/**
 * Time-bounded batching for a consumer. kafkajs fetches again as soon as the
 * batches of the last fetch are handled, and the broker answers a fetch as
 * soon as one message is there, so at a low rate every message costs a fetch,
 * a transaction and an offset write of its own. Paced, a fetch that brought
 * messages is followed by the next one no sooner than `gatherMs` after it
 * began: the messages of those milliseconds arrive together and share one
 * fetch and one transaction per partition. A message waits at most
 * `gatherMs` more; an idle consumer is not paced (its fetch waits at the
 * broker, which answers as soon as a message arrives), so idling stays cheap
 * and the first message after a pause is not delayed at all.
 */
export class FetchPacer {
  private fetchStartedAt = 0;

  constructor(
    consumer: Consumer,
    private readonly gatherMs: number,
  ) {
    if (gatherMs > 0) consumer.on(consumer.events.FETCH_START, () => void (this.fetchStartedAt = Date.now()));
  }

  /** Called when a batch has been handled: waits out the rest of the gathering time (batches of one fetch wait together). */
  async pace(live: () => boolean): Promise<void> {
    const wait = this.fetchStartedAt + this.gatherMs - Date.now();
    if (wait <= 0 || !live()) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, this.gatherMs)));
  }
}
