import type { Logger } from 'pino';
import { TOPICS, type IngestedEvent } from '@pulseboard/contracts';
import { consume, eachMessage, type Consuming, type KafkaConsumeOptions } from '@pulseboard/kafka-kit';
import type { Tail } from './tail.ts';

export interface TailFeedOptions {
  kafka: KafkaConsumeOptions<unknown>['kafka'];
  logger: Logger;
  topic: string;
  groupPrefix: string;
  gatherMs: number;
  /** How long the consumer stays after the last tail ends (a reload, a filter change, do not pay a group join). */
  lingerMs: number;
  onEvent?: (outcome: 'sent' | 'skipped' | 'filtered') => void;
}

/**
 * The events topic, read only while someone tails: the first tail starts a
 * fan-out consumer (this instance's own group, from the latest offset), the
 * last one stops it after `lingerMs`. Messages of projects nobody tails here
 * are passed over by their key without being decoded; an event is decoded
 * once and its message built once for all the tails it goes to.
 */
export class TailFeed {
  private readonly byProject = new Map<string, Set<Tail>>();
  private consumer: Promise<Consuming> | undefined;
  private stopping: Promise<void> = Promise.resolve();
  private linger: NodeJS.Timeout | undefined;
  private readonly ticker: NodeJS.Timeout;

  constructor(private readonly options: TailFeedOptions) {
    // Skip counts reach a client within a second even when no event goes out to carry them.
    this.ticker = setInterval(() => {
      for (const tails of this.byProject.values()) for (const t of tails) t.flushSkipped();
    }, 1000);
    this.ticker.unref();
  }

  /** Starts delivering to `tail` once the consumer reads the topic: events accepted after this resolves reach it. */
  async add(tail: Tail): Promise<void> {
    clearTimeout(this.linger);
    this.linger = undefined;
    const consumer = await this.running();
    await consumer.whenReady();
    let tails = this.byProject.get(tail.project);
    if (tails === undefined) this.byProject.set(tail.project, (tails = new Set()));
    tails.add(tail);
  }

  remove(tail: Tail): void {
    const tails = this.byProject.get(tail.project);
    if (tails === undefined || !tails.delete(tail)) return;
    tail.flushSkipped();
    if (tails.size === 0) this.byProject.delete(tail.project);
    if (this.byProject.size === 0 && this.linger === undefined && this.consumer !== undefined) {
      this.linger = setTimeout(() => {
        this.linger = undefined;
        if (this.byProject.size === 0) this.stopConsumer();
      }, this.options.lingerMs);
      this.linger.unref();
    }
  }

  /** Whether the events topic is being read now (tests, metrics). */
  reading(): boolean {
    return this.consumer !== undefined;
  }

  tails(): number {
    let n = 0;
    for (const t of this.byProject.values()) n += t.size;
    return n;
  }

  async stop(): Promise<void> {
    clearInterval(this.ticker);
    clearTimeout(this.linger);
    this.byProject.clear();
    this.stopConsumer();
    await this.stopping;
  }

  private running(): Promise<Consuming> {
    this.consumer ??= this.stopping.then(() => this.start());
    // A failed start is not kept: the next tail tries again.
    this.consumer.catch(() => (this.consumer = undefined));
    return this.consumer;
  }

  private stopConsumer(): void {
    const consumer = this.consumer;
    if (consumer === undefined) return;
    this.consumer = undefined;
    this.stopping = consumer
      .then((c) => c.stop())
      .then(() => this.options.logger.info({ event: 'tail_feed_stopped' }))
      .catch((error: unknown) => this.options.logger.warn({ event: 'tail_feed_stop_failed', err: error }));
    this.options.logger.info({ event: 'tail_feed_stopping' });
  }

  private async start(): Promise<Consuming> {
    const { kafka, logger, topic, groupPrefix, gatherMs } = this.options;
    logger.info({ event: 'tail_feed_starting', topic });
    return consume<{ event: IngestedEvent; raw: Buffer }>({
      kafka,
      logger,
      topic,
      group: { fanOut: groupPrefix },
      offsets: 'none',
      gatherMs,
      // A firehose must not hold the event loop: small fetches (128 KiB, about 500 events; at one fetch per
      // gather interval, 20 ms, still 6 MB/s, some 25,000 events/s, per partition) and a
      // yield every 100 events, so tile changes and other sockets are served in between.
      maxBytesPerPartition: 128 * 1024,
      accept: (key) => key !== null && this.byProject.has(key.toString('utf8')),
      decode: (value) => {
        const decoded = TOPICS.events.decode(value);
        return decoded.ok ? { ok: true, value: { event: decoded.value, raw: value! } } : decoded;
      },
      handler: eachMessage(({ event, raw }) => this.deliver(event, raw), 100),
    });
  }

  private deliver(event: IngestedEvent, raw: Buffer): void {
    const tails = this.byProject.get(event.project_key);
    if (tails === undefined) return;
    let frame: Buffer | undefined;
    // The event's bytes as they came from Kafka (already checked against its schema), wrapped once.
    const build = () =>
      (frame ??= Buffer.concat([Buffer.from(`{"type":"event","v":1,"project":${JSON.stringify(event.project_key)},"event":`), raw, Buffer.from('}')]));
    for (const tail of tails) this.options.onEvent?.(tail.offer(event, build));
  }
}
