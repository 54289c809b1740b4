import type { ConsumedMessage, Outcome } from '@pulseboard/kafka-kit';
import { OK } from '@pulseboard/kafka-kit';
import { pulseboardError, type IngestedEvent } from '@pulseboard/contracts';
import type { Pool } from '@pulseboard/db';
import type { Logger } from 'pino';
import type { StoreMetrics } from './metrics.ts';
import { writeEvents } from './event-writer.ts';

// SQLSTATE classes that mean "this data can never be written" rather than "try later".
const DATA_ERROR_CLASSES = ['22', '23'];

/**
 * Stores a batch of decoded events. A database outage throws a retryable error
 * (the wrapper backs off and nothing is committed); if the batch is refused for
 * its data, each event is tried alone so one bad event cannot hold up the rest.
 */
export function createEventsHandler(deps: { pool: Pool; logger: Logger; metrics: StoreMetrics }) {
  return async (messages: ConsumedMessage<IngestedEvent>[]): Promise<Outcome[]> => {
    const events = messages.map((m) => m.value);
    try {
      const inserted = await writeEvents(deps.pool, events);
      deps.metrics.record(events.length, inserted);
      return messages.map(() => OK);
    } catch (error) {
      if (!isDataError(error)) throw pulseboardError('database_unavailable', 'could not write events', { retryable: true, cause: error });
    }
    deps.logger.warn({ event: 'store_batch_rejected_isolating', size: messages.length });
    const outcomes: Outcome[] = [];
    for (const event of events) {
      try {
        const inserted = await writeEvents(deps.pool, [event]);
        deps.metrics.record(1, inserted);
        outcomes.push(OK);
      } catch (error) {
        if (!isDataError(error)) throw pulseboardError('database_unavailable', 'could not write events', { retryable: true, cause: error });
        outcomes.push({ kind: 'dead_letter', code: 'rejected_by_database', message: (error as Error).message });
      }
    }
    return outcomes;
  };
}

function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && DATA_ERROR_CLASSES.includes(code.slice(0, 2));
}
