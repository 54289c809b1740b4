import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import { OK, type ConsumedMessage, type StateBatchResult } from '@pulseboard/kafka-kit';
import { PulseboardError, type IngestedEvent } from '@pulseboard/contracts';
import type { StoreMetrics } from './metrics.ts';
import { eventDays, writeEvents } from './event-writer.ts';
import type { PartitionKeeper } from './partitions.ts';

// SQLSTATE classes that mean "this data can never be written" rather than "try later".
const DATA_ERROR_CLASSES = ['22', '23'];

/**
 * Stores a batch of decoded events in the consumer's transaction (which also
 * moves its offsets). The days' partitions are made sure of first, on their
 * own connection, before this transaction touches the events table. A
 * refusal of the data is thrown as non-retryable: the consumer then narrows it
 * to the event at fault and dead-letters that one. Anything else (the
 * database away, a partition dropped meanwhile) is retried.
 */
export function createEventsHandler(deps: { partitions: PartitionKeeper; logger: Logger; metrics: StoreMetrics }) {
  const write = async (tx: PoolClient, messages: ConsumedMessage<IngestedEvent>[]): Promise<() => void> => {
    const events = messages.map((m) => m.value);
    await deps.partitions.ensure(eventDays(events));
    const started = performance.now();
    let stored: number;
    try {
      // writeEvents sets synchronous_commit off for the transaction (see there).
      stored = await writeEvents(
        tx,
        events,
        messages.map((m) => ({ partition: m.partition, offset: m.offset })),
      );
    } catch (error) {
      if (isDataError(error) && !isMissingPartition(error))
        throw new PulseboardError('rejected_by_database', { message: (error as Error).message, cause: error });
      if (isMissingPartition(error)) await deps.partitions.refresh();
      throw new PulseboardError('database_unavailable', { message: 'could not write events', cause: error });
    }
    const seconds = (performance.now() - started) / 1000;
    return () => deps.metrics.record(events.length, stored, seconds);
  };
  return {
    /** One partition's batch. */
    handle: async (tx: PoolClient, messages: ConsumedMessage<IngestedEvent>[]): Promise<StateBatchResult> => ({
      outcomes: messages.map(() => OK),
      committed: await write(tx, messages),
    }),
    /**
     * The batches of a fetch's shared transaction, written as one (one COPY and one counters
     * statement for every partition); a refusal is narrowed partition by partition afterwards.
     */
    handleAll: async (tx: PoolClient, batches: { messages: ConsumedMessage<IngestedEvent>[] }[]): Promise<StateBatchResult[]> => {
      const committed = await write(
        tx,
        batches.flatMap((b) => b.messages),
      );
      return batches.map((b, i) => ({ outcomes: b.messages.map(() => OK), ...(i === 0 ? { committed } : {}) }));
    },
  };
}

function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && DATA_ERROR_CLASSES.includes(code.slice(0, 2));
}

/** 23514 "no partition of relation ... found for row": retention dropped it between the check and the write. */
function isMissingPartition(error: unknown): boolean {
  return (error as { code?: unknown }).code === '23514' && /no partition/.test((error as Error).message);
}
