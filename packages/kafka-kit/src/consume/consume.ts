import type { Consumer, ConsumerRunConfig, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { DeadLetter, DeadLetterTarget } from './dead-letters.ts';
import { FanOutGroup } from './fan-out-group.ts';
import { restartAfterCrashes } from './crash-restart.ts';
import { FetchPacer } from './fetch-pacer.ts';
import { KafkaCommits } from './kafka-commits.ts';
import { traced, withMiddleware, type BatchSpan } from './middleware.ts';
import { postgresOffsets, type ClaimedPartitions, type PostgresOffsetsOptions, type SharedBatch, type StateContext } from './postgres-offsets.ts';
import { kafkaOffsets, type OffsetsStrategy } from './strategy.ts';
import type { BatchContext, Decoder, Handler, HandlerResult, Middleware } from './types.ts';

interface CommonOptions<T, C extends BatchContext> {
  kafka: Kafka;
  logger: Logger;
  topic: string;
  /**
   * A group the service's instances share (each message goes to one of them), or `{ fanOut: prefix }`:
   * a group of the instance's own, starting at the topic's end, so every instance sees every message
   * (deleted when it stops). What came before is read from the owner's tables, not replayed.
   */
  group: string | { fanOut: string };
  /** The topic's decoder (contracts' `TOPICS.<id>.decode`). */
  decode: Decoder<T>;
  /**
   * Applies one partition's decoded messages; one outcome per message. A thrown retryable error
   * (by property: `isTransient`) retries the batch with capped backoff, nothing committed meanwhile;
   * any other is narrowed to the message it comes from, which is dead-lettered (or dropped without a
   * `deadLetter` target), so one bad message cannot stall a partition.
   */
  handler: Handler<T, C>;
  /** Wraps every batch in a span (tracing middleware); the handler gets the span's `traceparent`. */
  trace?: BatchSpan;
  /** Further middleware around the handler, the first outermost (inside tracing). */
  middleware?: Middleware<T, C>[];
  /** Where undecodable messages, `dead_letter` outcomes and messages the handler fails on for good go, before the offset moves past them. */
  deadLetter?: DeadLetterTarget;
  /** Told each message passed over: a `drop` outcome, or a letter with nowhere to go. */
  onDrop?: (message: DeadLetter['message'], reason: string) => void;
  /** When given, a message whose key it refuses is passed over undecoded (a reader that wants a few keys of a busy topic). */
  accept?: (key: Buffer | null) => boolean;
  isRetryable?: (error: unknown) => boolean;
  maxBackoffMs?: number;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Bounds the broker's answer per partition (a firehose read beside latency-sensitive work: small fetches). */
  maxBytesPerPartition?: number;
  /** Time-bounded batching: a fetch that brought messages is followed by the next no sooner than this after it began (FetchPacer); 0: at once. */
  gatherMs?: number;
  /** Offsets committed to Kafka at most this often (default 1 s; 0: after every batch). A crash repeats at most this long's batches where Kafka holds the offsets. */
  commitIntervalMs?: number;
}

/** Offsets committed to Kafka once a batch's effects are durable ('kafka'), or never ('none': a fan-out feed). */
export interface KafkaConsumeOptions<T> extends CommonOptions<T, BatchContext> {
  offsets: 'kafka' | 'none';
}

/** Offsets in Postgres, in the transaction of the state the handler writes (exactly once, fenced by epoch). */
export interface PostgresConsumeOptions<T> extends CommonOptions<T, StateContext> {
  offsets: 'postgres';
  postgres: PostgresOffsetsOptions<T>;
}

export interface Consuming {
  groupId: string;
  consumer: Consumer;
  /** True once the consumer has its partitions (a fan-out feed: and its start offsets; messages produced after this arrive). */
  ready(): boolean;
  whenReady(): Promise<void>;
  /** Stops fetching, lets the batches in hand finish, commits what is durable, leaves the group. Safe to call twice. */
  stop(): Promise<void>;
}

export type StateConsuming = Consuming & ClaimedPartitions;

/**
 * The one consumer: owns the client's `run`, batching by time and size, commits, backoff,
 * narrowing to the bad message and dead-lettering; where the offsets live (`offsets`) is the one
 * thing consumers do differently. Decoding, tracing and dead letters wrap the handler.
 */
export async function consume<T>(options: PostgresConsumeOptions<T>): Promise<StateConsuming>;
export async function consume<T>(options: KafkaConsumeOptions<T>): Promise<Consuming>;
export async function consume<T>(options: KafkaConsumeOptions<T> | PostgresConsumeOptions<T>): Promise<Consuming | StateConsuming> {
  const { kafka, logger, topic } = options;
  const fanOut = typeof options.group === 'string' ? undefined : new FanOutGroup(options.group.fanOut);
  const groupId = fanOut?.groupId ?? (options.group as string);
  const consumer = kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    sessionTimeout: options.sessionTimeoutMs ?? (fanOut ? 10_000 : 30_000),
    heartbeatInterval: options.heartbeatIntervalMs ?? (fanOut ? 1000 : 3000),
    ...(fanOut
      ? // The broker answers a fetch as soon as one byte is there, so this only bounds an idle fetch: a quick stop without polling.
        {
          maxWaitTimeInMs: 500,
          ...(options.maxBytesPerPartition === undefined
            ? {}
            : { maxBytesPerPartition: options.maxBytesPerPartition, maxBytes: options.maxBytesPerPartition * 6 }),
        }
      : { maxBytesPerPartition: options.maxBytesPerPartition ?? 4 * 1024 * 1024 }),
  });
  let stopping = false;
  const commits =
    options.offsets === 'none' ? undefined : new KafkaCommits(consumer, topic, logger, options.commitIntervalMs ?? 1000, options.offsets === 'postgres');
  const runner = {
    logger,
    topic,
    groupId,
    ...(options.deadLetter === undefined ? {} : { deadLetter: options.deadLetter }),
    ...(options.onDrop === undefined ? {} : { onDrop: options.onDrop }),
    ...(options.isRetryable === undefined ? {} : { isRetryable: options.isRetryable }),
    ...(options.maxBackoffMs === undefined ? {} : { maxBackoffMs: options.maxBackoffMs }),
  };
  const concurrency = options.partitionsConsumedConcurrently ?? 1;
  const wrap = <C extends BatchContext>(handler: Handler<T, C>, middleware?: Middleware<T, C>[]) =>
    withMiddleware(handler, [...(options.trace === undefined ? [] : [traced<T, C>(options.trace)]), ...(middleware ?? [])]);
  const strategy: OffsetsStrategy & Partial<ClaimedPartitions> =
    options.offsets === 'postgres'
      ? postgresOffsets(withTracedHandleAll(options.postgres, options.trace), {
          consumer,
          logger,
          groupId,
          topic,
          decode: options.decode,
          handler: wrap(options.handler, options.middleware),
          runner,
          concurrency,
          forget: (partition) => commits?.forget(partition),
          stopping: () => stopping,
        })
      : kafkaOffsets(options.decode, wrap(options.handler, options.middleware), runner, concurrency, options.accept);

  let isReady = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));
  await fanOut?.prepare(kafka, topic);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const assigned = payload.memberAssignment[topic] ?? [];
    fanOut?.onJoin(consumer, topic, assigned);
    const kept = new Set(assigned);
    for (const partition of commitsPending(commits, kept)) commits?.forget(partition);
    strategy.onAssigned(assigned);
    isReady = true;
    markReady();
  });

  const pacer = new FetchPacer(consumer, options.gatherMs ?? 0);
  const inFlight = new Set<Promise<boolean>>();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: fanOut ? false : (options.fromBeginning ?? true) });
  const runConfig: ConsumerRunConfig = {
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: strategy.concurrency,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (batch.messages.length === 0 || stopping) return;
      // Rebalanced away or stopping: another owner (or the next start) redoes it.
      const live = () => isRunning() && !isStale() && !stopping;
      const last = batch.messages[batch.messages.length - 1]!;
      const nextOffset = BigInt(last.offset) + 1n;
      const work = strategy.apply({ partition: batch.partition, messages: batch.messages, nextOffset, live, heartbeat });
      inFlight.add(work);
      let done: boolean;
      try {
        done = await work;
      } finally {
        inFlight.delete(work);
      }
      if (!done) return;
      resolveOffset(last.offset);
      await commits?.mark(batch.partition, nextOffset.toString());
      await heartbeat().catch(() => undefined);
      await pacer.pace(live);
    },
  };
  const crashes = restartAfterCrashes(consumer, runConfig, logger, { topic, groupId, stopping: () => stopping });
  await consumer.run(runConfig);

  let stopped: Promise<void> | undefined;
  return {
    groupId,
    consumer,
    ready: () => isReady,
    whenReady: () => readyPromise,
    ...(strategy.withClaim === undefined ? {} : { withClaim: strategy.withClaim, claimedPartitions: strategy.claimedPartitions }),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        crashes.cancel();
        // The batches in hand finish, and what is durable is committed while this member is still in the group.
        await Promise.allSettled([...inFlight]);
        await commits?.flush();
        await consumer.stop();
        await consumer.disconnect();
        await strategy.stopped();
        await fanOut?.remove(kafka, logger);
      })();
      return stopped;
    },
  };
}

/**
 * The tracing middleware for the shared transaction: a span per partition's batch, as on its own
 * (each the child of its first message's trace), all open while the shared call runs; each batch
 * is handed its span's `traceparent`.
 */
function withTracedHandleAll<T>(postgres: PostgresOffsetsOptions<T>, trace: BatchSpan | undefined): PostgresOffsetsOptions<T> {
  const handleAll = postgres.handleAll;
  if (trace === undefined || handleAll === undefined) return postgres;
  return {
    ...postgres,
    handleAll: (tx, batches) => {
      const open = (i: number, traced: SharedBatch<T>[]): Promise<HandlerResult[]> => {
        const batch = batches[i];
        if (batch === undefined) return handleAll(tx, traced);
        return trace(batch.messages, { 'messaging.destination.partition.id': String(batch.claim.partition) }, (traceparent) =>
          open(i + 1, [...traced, { ...batch, traceparent }]),
        );
      };
      return open(0, []);
    },
  };
}

function commitsPending(commits: KafkaCommits | undefined, kept: Set<number>): number[] {
  return commits === undefined ? [] : commits.pending().filter((partition) => !kept.has(partition));
}
