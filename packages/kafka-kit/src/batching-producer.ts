import type { Kafka, Producer, IHeaders } from 'kafkajs';
import type { Logger } from 'pino';
import { PulseboardError } from '@pulseboard/contracts';
import { JavaCompatiblePartitioner } from './partitioner.ts';

export interface OutgoingMessage {
  key: string | Buffer;
  value: string | Buffer;
  headers?: IHeaders;
}

interface Pending {
  topic: string;
  /** Sent in one produce request together: a caller's messages are never split. */
  messages: readonly OutgoingMessage[];
  /** Estimated bytes on the wire. */
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  settled: boolean;
}

export interface BatchingProducerOptions {
  kafka: Kafka;
  logger: Logger;
  /**
   * How long the first message of a batch waits for company. 0 waits for the
   * rest of the current event-loop turn only (a setImmediate), which still
   * gathers every caller released by the same I/O event, e.g. a whole
   * rate-limiter decision, without adding a timer's millisecond.
   */
  lingerMs?: number;
  /**
   * Linger only while callers have lately come less than `lingerMs` apart (an
   * average of their recent gaps), i.e. while company is to be expected in
   * that time; otherwise a batch leaves on the next event-loop turn. A busy
   * producer then shares a produce request among several callers, and a
   * trickle of callers is not made to wait for company that will not come.
   */
  lingerOnlyWhenBusy?: boolean;
  /** The clock of the gaps between callers (tests). */
  now?: () => number;
  /** A batch is sent as soon as it holds this many messages. */
  maxBatchMessages?: number;
  /**
   * Callers share a produce request only up to this many bytes (estimated), so
   * no partition's record batch of a shared request can exceed the broker's
   * default `message.max.bytes` (1 MiB). A caller larger than this goes alone:
   * its messages share one key, hence one partition, so the broker takes or
   * refuses them as a whole and nobody else's messages are refused with them.
   */
  maxBatchBytes?: number;
  /** A caller is told `kafka_unavailable` when its message is not acknowledged within this time. */
  deliveryTimeoutMs?: number;
  /** kafkajs producers used side by side: produce requests in flight at once (default 1). */
  lanes?: number;
  /** Told the number of messages of every produce request sent (for a metric). */
  onProduceRequest?: (messages: number) => void;
}

/** One kafkajs producer: kafkajs' idempotent producer has at most one request in flight per broker. */
interface Lane {
  id: number;
  producer: Producer;
  connected: boolean;
  /** connect() resolved: the idempotent producer id exists. */
  initialised: boolean;
  inFlight: boolean;
}

/**
 * An idempotent, acks=all producer that lets concurrent callers share produce
 * requests: messages queue while requests are in flight, and the next request
 * carries all of them (group commit). With several lanes (kafkajs producers,
 * each idempotent on its own) several requests are in flight at once, so a
 * caller waits about one broker round trip instead of two. Order: a caller's
 * messages travel together in one request; events of a client that waits for
 * each answer are still written in the order it sent them, since the next is
 * handed over only after the previous was acknowledged.
 * Each caller's promise settles with its own messages' acknowledgement, or
 * rejects with a retryable `kafka_unavailable` once its delivery timeout
 * passes, so an HTTP request never hangs on a dead broker.
 */
export class BatchingProducer {
  private readonly lanes: Lane[];
  private readonly logger: Logger;
  private readonly lingerMs: number;
  private readonly maxBatchMessages: number;
  private readonly maxBatchBytes: number;
  private readonly deliveryTimeoutMs: number;
  private readonly onProduceRequest: ((messages: number) => void) | undefined;
  private queue: Pending[] = [];
  /** Messages and bytes of the queued callers (settled ones included until they leave the queue). */
  private queuedMessages = 0;
  private queuedBytes = 0;
  private lingerTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** Whether lingerTimer is a setTimeout (else a setImmediate): each is cleared by its own function. */
  private lingerIsTimeout = false;
  private readonly lingerOnlyWhenBusy: boolean;
  private readonly now: () => number;
  private lastCallerAt: number | undefined;
  /** The recent gaps between callers, averaged (ms); unknown until two have come. */
  private callerGapMs: number | undefined;
  private started = false;
  private stopped = false;
  private idle: (() => void) | undefined;
  private readonly kafka: BatchingProducerOptions['kafka'];

  constructor(options: BatchingProducerOptions) {
    this.logger = options.logger;
    this.lingerMs = options.lingerMs ?? 1;
    this.lingerOnlyWhenBusy = options.lingerOnlyWhenBusy ?? false;
    this.now = options.now ?? (() => performance.now());
    this.maxBatchMessages = options.maxBatchMessages ?? 2000;
    this.maxBatchBytes = options.maxBatchBytes ?? 900 * 1024;
    this.deliveryTimeoutMs = options.deliveryTimeoutMs ?? 5000;
    this.onProduceRequest = options.onProduceRequest;
    this.kafka = options.kafka;
    this.lanes = Array.from({ length: Math.max(1, options.lanes ?? 1) }, (_, id) => {
      const lane = { id, connected: false, initialised: false, inFlight: false } as Lane;
      lane.producer = this.newProducer(lane);
      return lane;
    });
  }

  /** An idempotent producer for a lane; a new one also means a new producer id. */
  private newProducer(lane: Lane): Producer {
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Murmur2 like the Java client, so users' own producers and consumers agree on partitions
      // (the same answers as kafkajs' DefaultPartitioner, without its per-message Long arithmetic).
      createPartitioner: JavaCompatiblePartitioner,
      // The idempotent producer must not give up on its own (kafkajs warns otherwise); callers
      // are bounded by deliveryTimeoutMs instead.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 2000 },
    });
    // kafkajs emits CONNECT before connect() has initialised the idempotent producer id; a
    // produce in that gap goes out without it (not idempotent) and then trips over kafkajs'
    // broker lock ("reading 'release'"). So nothing is sent until connect() has resolved.
    producer.on(producer.events.CONNECT, () => {
      if (lane.producer !== producer) return;
      lane.connected = true;
      if (lane.initialised) this.schedule();
    });
    producer.on(producer.events.DISCONNECT, () => {
      if (lane.producer === producer) lane.connected = false;
    });
    return producer;
  }

  /** Connects in the background and keeps trying, so a service starts while Kafka is still coming up. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const lane of this.lanes) void this.connectWithRetry(lane);
  }

  private async connectWithRetry(lane: Lane): Promise<void> {
    let delay = 200;
    const producer = lane.producer;
    // A reset gives the lane a new producer with a loop of its own: this one then ends.
    while (!this.stopped && lane.producer === producer) {
      try {
        await producer.connect();
        if (lane.producer !== producer) return;
        lane.initialised = true;
        lane.connected = true;
        this.logger.info({ event: 'kafka_producer_connected', lane: lane.id });
        this.schedule();
        return;
      } catch (error) {
        this.logger.warn({ event: 'kafka_producer_connect_failed', lane: lane.id, err: error, retry_in_ms: delay });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private idleLane(): Lane | undefined {
    for (const lane of this.lanes) if (lane.connected && lane.initialised && !lane.inFlight) return lane;
    return undefined;
  }

  private get anyInFlight(): boolean {
    return this.lanes.some((lane) => lane.inFlight);
  }

  /** Resolves once Kafka acknowledged the message (acks=all). */
  send(topic: string, message: OutgoingMessage): Promise<void> {
    return this.sendMany(topic, [message]);
  }

  /**
   * Resolves once Kafka acknowledged every one of the messages (acks=all). They
   * travel in the same produce request, with one timer for all of them, which is
   * what makes a 100-event webhook batch cost little more than one event.
   */
  sendMany(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    if (this.stopped) return Promise.reject(new PulseboardError('producer_stopped', { message: 'the producer is stopping' }));
    if (messages.length === 0) return Promise.resolve();
    let bytes = 0;
    for (const m of messages) bytes += messageBytes(m);
    return new Promise<void>((resolve, reject) => {
      const pending: Pending = {
        topic,
        messages,
        bytes,
        resolve,
        reject,
        settled: false,
        timer: setTimeout(() => this.expire(pending), this.deliveryTimeoutMs),
      };
      this.noteCaller();
      this.queue.push(pending);
      this.queuedMessages += messages.length;
      this.queuedBytes += bytes;
      this.schedule();
    });
  }

  private expire(pending: Pending): void {
    if (pending.settled) return;
    pending.settled = true;
    // Not yet handed to Kafka: take it out so it is never written after we said it failed.
    const index = this.queue.indexOf(pending);
    if (index >= 0) {
      this.queue.splice(index, 1);
      this.queuedMessages -= pending.messages.length;
      this.queuedBytes -= pending.bytes;
    }
    pending.reject(new PulseboardError('kafka_unavailable', { message: 'the event log did not acknowledge the event in time' }));
  }

  private noteCaller(): void {
    if (!this.lingerOnlyWhenBusy) return;
    const now = this.now();
    if (this.lastCallerAt !== undefined) {
      // A long pause counts as one second: the average then recovers within a few dozen callers.
      const gap = Math.min(now - this.lastCallerAt, 1000);
      this.callerGapMs = this.callerGapMs === undefined ? gap : 0.8 * this.callerGapMs + 0.2 * gap;
    }
    this.lastCallerAt = now;
  }

  /** How long the first message of a batch waits for company now. */
  private currentLingerMs(): number {
    if (!this.lingerOnlyWhenBusy) return this.lingerMs;
    return this.callerGapMs !== undefined && this.callerGapMs < this.lingerMs ? this.lingerMs : 0;
  }

  private schedule(): void {
    if (this.queue.length === 0 || this.lingerTimer !== undefined) return;
    const lane = this.idleLane();
    if (lane === undefined) return;
    if (this.queuedMessages >= this.maxBatchMessages || this.queuedBytes >= this.maxBatchBytes) {
      void this.flush(lane);
      return;
    }
    const lingered = () => {
      this.lingerTimer = undefined;
      const idle = this.idleLane();
      if (idle !== undefined) void this.flush(idle);
    };
    const lingerMs = this.currentLingerMs();
    this.lingerIsTimeout = lingerMs > 0;
    this.lingerTimer = lingerMs <= 0 ? setImmediate(lingered) : setTimeout(lingered, lingerMs);
  }

  private async flush(lane: Lane): Promise<void> {
    if (lane.inFlight) return;
    const batch = this.takeBatch();
    if (batch.length === 0) return this.afterFlush();
    lane.inFlight = true;
    const byTopic = new Map<string, OutgoingMessage[]>();
    let messages = 0;
    for (const p of batch) {
      messages += p.messages.length;
      const list = byTopic.get(p.topic);
      if (list === undefined) byTopic.set(p.topic, [...p.messages]);
      else for (const m of p.messages) list.push(m);
    }
    this.onProduceRequest?.(messages);
    try {
      await lane.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
      for (const p of batch) this.settle(p);
    } catch (error) {
      this.logger.error({ event: 'kafka_produce_failed', lane: lane.id, err: error, callers: batch.length });
      const failure = produceFailure(error);
      for (const p of batch) this.settle(p, failure);
      if (lostProducerState(error)) this.resetLane(lane, kafkaErrorType(error));
    } finally {
      lane.inFlight = false;
      this.afterFlush();
    }
  }

  /**
   * The broker no longer knows this producer's id or sequence (it restarted and lost the
   * producer state, or kafkajs' sequence drifted): every later produce request of this
   * producer would be refused the same way. A fresh producer id starts over; the lane takes
   * no work until it has one.
   */
  private resetLane(lane: Lane, type: string | undefined): void {
    // kafkajs keeps a producer's id across disconnect and connect: only a new producer gets a new one.
    const old = lane.producer;
    lane.initialised = false;
    lane.connected = false;
    lane.producer = this.newProducer(lane);
    this.logger.warn({ event: 'kafka_producer_reset', lane: lane.id, reason: type });
    void old.disconnect().catch(() => undefined);
    if (!this.stopped) void this.connectWithRetry(lane);
  }

  /** Whole callers, up to maxBatchMessages messages and maxBatchBytes (a caller larger than that goes alone). */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    let messages = 0;
    let bytes = 0;
    let taken = 0;
    for (const p of this.queue) {
      if (batch.length > 0 && (messages + p.messages.length > this.maxBatchMessages || bytes + p.bytes > this.maxBatchBytes)) break;
      taken++;
      if (p.settled) continue;
      batch.push(p);
      messages += p.messages.length;
      bytes += p.bytes;
    }
    for (const p of this.queue.splice(0, taken)) {
      this.queuedMessages -= p.messages.length;
      this.queuedBytes -= p.bytes;
    }
    return batch;
  }

  private settle(p: Pending, error?: Error): void {
    clearTimeout(p.timer);
    if (p.settled) return;
    p.settled = true;
    if (error === undefined) p.resolve();
    else p.reject(error);
  }

  private afterFlush(): void {
    if (this.queue.length > 0) {
      // These messages waited out a whole produce request already: no linger on top.
      const lane = this.lingerTimer === undefined ? this.idleLane() : undefined;
      if (lane !== undefined) void this.flush(lane);
      else this.schedule();
    } else if (!this.anyInFlight && this.idle !== undefined) this.idle();
  }

  /** Sends what is queued, then disconnects. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.lanes.some((lane) => lane.connected) && (this.anyInFlight || this.queue.length > 0)) {
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        if (this.lingerTimer !== undefined) {
          // Each clear function only for its own kind: clearImmediate on a Timeout corrupts Node's immediate count.
          if (this.lingerIsTimeout) clearTimeout(this.lingerTimer as NodeJS.Timeout);
          else clearImmediate(this.lingerTimer as NodeJS.Immediate);
          this.lingerTimer = undefined;
        }
        this.afterFlush();
        setTimeout(resolve, this.deliveryTimeoutMs).unref();
      });
    }
    for (const p of [...this.queue]) this.expire(p);
    await Promise.all(this.lanes.map((lane) => lane.producer.disconnect().catch(() => undefined)));
  }

  /** For readiness probes. */
  get ready(): boolean {
    return this.lanes.some((lane) => lane.connected && lane.initialised);
  }
}

// Record overhead in a v2 record batch (lengths, offsets, timestamps, header framing), rounded up.
const RECORD_OVERHEAD_BYTES = 64;

function messageBytes(m: OutgoingMessage): number {
  let bytes =
    RECORD_OVERHEAD_BYTES +
    (typeof m.key === 'string' ? Buffer.byteLength(m.key) : m.key.length) +
    (typeof m.value === 'string' ? Buffer.byteLength(m.value) : m.value.length);
  if (m.headers !== undefined) {
    for (const [name, value] of Object.entries(m.headers))
      bytes += name.length + (typeof value === 'string' ? Buffer.byteLength(value) : Buffer.isBuffer(value) ? value.length : 0);
  }
  return bytes;
}

/** The broker's error type, looking through kafkajs' wrappers. */
function kafkaErrorType(error: unknown): string | undefined {
  for (
    let e = error as { type?: unknown; cause?: unknown; originalError?: unknown } | undefined, depth = 0;
    e !== undefined && e !== null && depth < 5;
    depth++
  ) {
    if (typeof e.type === 'string') return e.type;
    e = (e.cause ?? e.originalError) as typeof e;
  }
  return undefined;
}

/**
 * Refusals of the idempotent producer's identity, not of the messages: the batch was not
 * written, and a producer with a new id may send it again. (DUPLICATE_SEQUENCE_NUMBER is not
 * one: that batch was written.)
 */
const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

export function lostProducerState(error: unknown): boolean {
  const type = kafkaErrorType(error);
  return type !== undefined && PRODUCER_STATE_ERRORS.has(type);
}

/**
 * What a caller is told when its produce request failed: too large (413, not
 * worth retrying as is), refused for another lasting reason, or the broker is
 * unavailable (retryable, 503; also when the broker lost the producer's state,
 * which a new producer id mends).
 */
export function produceFailure(error: unknown): Error {
  const type = kafkaErrorType(error);
  if (type === 'MESSAGE_TOO_LARGE' || type === 'RECORD_LIST_TOO_LARGE') {
    return new PulseboardError('kafka_message_too_large', { message: 'the event log refused the message as too large', cause: error });
  }
  if (lostProducerState(error)) {
    return new PulseboardError('kafka_unavailable', { message: `the event log lost this producer's state (${type}); retry`, cause: error });
  }
  if ((error as { retriable?: unknown }).retriable === false && type !== undefined) {
    return new PulseboardError('kafka_rejected', { message: `the event log refused the message (${type})`, cause: error });
  }
  return new PulseboardError('kafka_unavailable', { message: 'the event log is unavailable', cause: error });
}
