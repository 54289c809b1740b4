import type { Logger } from 'pino';
import type { ConsumedMessage } from './types.ts';
import type { Outcome } from '../outcome.ts';
import { errorFields, isTransient, RETRY_MAX_BACKOFF_MS } from '../transient.ts';
import { sendDeadLetters, type DeadLetter, type DeadLetterTarget } from './dead-letters.ts';

/**
 * The commit strategy, the one thing the consumers do differently: one attempt
 * at a run of messages. It applies them (the handler), calls `settle` with the
 * handler's outcomes before its effects become durable, and resolves once they
 * are. `nextOffset` is the offset after the run: a consumer whose offsets live
 * with its state writes it in the same transaction; one whose offsets Kafka
 * commits after the batch ignores it. Throws, with nothing durable, on failure.
 */
export type Attempt<T> = (messages: ConsumedMessage<T>[], nextOffset: bigint, settle: (outcomes: Outcome[]) => Promise<void>) => Promise<Outcome[]>;

export interface BatchRunnerOptions<T> {
  logger: Logger;
  topic: string;
  groupId: string;
  attempt: Attempt<T>;
  /** Where letters are parked; without it they are dropped (logged, `onDrop`). */
  deadLetter?: DeadLetterTarget;
  /** Told each message passed over: a `drop` outcome, or a letter with nowhere to go. */
  onDrop?: (message: DeadLetter['message'], reason: string) => void;
  isRetryable?: (error: unknown) => boolean;
  /** Errors that end the run at once, rethrown to the caller (e.g. the partition was fenced). */
  isFatal?: (error: unknown) => boolean;
  maxBackoffMs?: number;
}

/** A batch of one partition: the decoded messages, the letters decoding made, and how to tell the run is still wanted. */
export interface Batch<T> {
  partition: number;
  messages: ConsumedMessage<T>[];
  /** Messages already known to be unappliable (undecodable). */
  letters: readonly DeadLetter[];
  /** The offset after the batch. */
  nextOffset: bigint;
  /** False once the consumer stops or loses the partition: the run gives up (another owner redoes it). */
  live: () => boolean;
  /** Keeps the group membership while a retry waits. */
  heartbeat?: () => Promise<void>;
}

/**
 * Runs batches through an attempt, applying in one place what every consumer
 * needs: a retryable failure is retried with capped backoff (nothing durable
 * meanwhile); any other failure is narrowed to the message it comes from
 * (each alone), which is dead-lettered (or dropped without a target), so one
 * bad message cannot stall a partition; letters and `dead_letter` outcomes are
 * parked before the attempt that moves past them is durable.
 */
export function createBatchRunner<T>(options: BatchRunnerOptions<T>): (batch: Batch<T>) => Promise<boolean> {
  const { logger, topic, groupId } = options;
  const retryable = options.isRetryable ?? isTransient;
  const fatal = options.isFatal ?? (() => false);
  const maxBackoffMs = options.maxBackoffMs ?? RETRY_MAX_BACKOFF_MS;

  const drop = (message: DeadLetter['message'], reason: string, level: 'info' | 'warn' | 'error') => {
    logger[level]({ event: 'message_dropped', topic, partition: message.partition, offset: message.offset, reason });
    options.onDrop?.(message, reason);
  };

  /** Parks the letters and `dead_letter` outcomes (with a target); what is passed over is reported once the run is durable. */
  const settler = (messages: ConsumedMessage<T>[], letters: readonly DeadLetter[]) => async (outcomes: Outcome[]) => {
    if (outcomes.length !== messages.length) throw new Error(`handler gave ${outcomes.length} outcomes for ${messages.length} messages`);
    if (options.deadLetter === undefined) return;
    const parked = [...letters];
    outcomes.forEach((o, i) => o.kind === 'dead_letter' && parked.push({ message: messages[i]!, code: o.code, reason: o.message }));
    if (parked.length > 0) await sendDeadLetters(options.deadLetter, groupId, logger, parked);
  };

  const reportPassedOver = (messages: ConsumedMessage<T>[], outcomes: Outcome[], letters: readonly DeadLetter[]) => {
    outcomes.forEach((outcome, i) => {
      if (outcome.kind === 'drop') drop(messages[i]!, outcome.reason, 'info');
      else if (outcome.kind === 'dead_letter' && options.deadLetter === undefined) drop(messages[i]!, `${outcome.code}: ${outcome.message}`, 'warn');
    });
    if (options.deadLetter === undefined) for (const l of letters) drop(l.message, `${l.code}: ${l.reason}`, l.code === 'handler_failed' ? 'error' : 'warn');
  };

  async function run(batch: Batch<T>, messages: ConsumedMessage<T>[], nextOffset: bigint, letters: readonly DeadLetter[]): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      if (!batch.live()) return false;
      try {
        const outcomes = await options.attempt(messages, nextOffset, settler(messages, letters));
        reportPassedOver(messages, outcomes, letters);
        return true;
      } catch (error) {
        if (fatal(error)) throw error;
        // An empty run only parks letters and moves the offset: what fails there is a dependency's trouble, retried.
        if (!retryable(error) && messages.length > 0) {
          if (messages.length === 1) {
            const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
            return run(batch, [], nextOffset, [...letters, { message: messages[0]!, code: 'handler_failed', reason }]);
          }
          // Find the message at fault: each alone (the batch's letters go with the first), then move past the tail.
          let pending = letters;
          for (const message of messages) {
            if (!(await run(batch, [message], BigInt(message.offset) + 1n, pending))) return false;
            pending = [];
          }
          return run(batch, [], nextOffset, []);
        }
        const delay = Math.min(maxBackoffMs, 100 * 2 ** Math.min(attempt, 10));
        logger.warn({ event: 'consumer_batch_retry', topic, partition: batch.partition, attempt, retry_in_ms: delay, ...errorFields(error) });
        await sleepWithHeartbeat(delay, batch.live, batch.heartbeat);
      }
    }
  }

  return (batch) => run(batch, batch.messages, batch.nextOffset, batch.letters);
}

/** Waits, heartbeating so the group keeps the partition; ends early once `live` turns false. */
export async function sleepWithHeartbeat(ms: number, live: () => boolean, heartbeat?: () => Promise<void>): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && live()) {
    await new Promise((r) => setTimeout(r, Math.min(200, until - Date.now())));
    await heartbeat?.().catch(() => undefined);
  }
}
