/**
 * What passes between the Postgres side of a relay (`@pulseboard/db`: an
 * outbox table, a log relayed by cursor) and its Kafka side
 * (`@pulseboard/kafka-kit`'s `OutboxRelay`), so that neither knows the other.
 */

/** A message born of state: written with the state, sent after the commit. */
export interface OutboxMessage {
  topic: string;
  key: string;
  value: string;
  headers?: Record<string, string>;
}

/** Messages read for relaying, and how to mark them sent once Kafka acknowledged them. */
export interface RelayBatch {
  messages: OutboxMessage[];
  acknowledge(): Promise<void>;
}

/**
 * Where a relay reads: in write order per source partition, at most `limit`
 * at a time. A source remembers what it handed out, so the next read starts
 * after it while the acknowledgement is still being written; `forget()` (a
 * send or an acknowledgement failed) makes it read from what is marked sent
 * again.
 */
export interface RelaySource {
  next(partitions: number[], limit: number): Promise<RelayBatch | undefined>;
  forget(): void;
  /** Writes the marks a source holds back (see `logSource`'s `markIntervalMs`): the relay's flush and stop call it. */
  flush?(): Promise<void>;
}
