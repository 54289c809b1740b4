import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { Outcome } from '../outcome.ts';

/** A message as a handler sees it: where it came from, its key and raw form, and its decoded value. */
export interface ConsumedMessage<T> {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  raw: KafkaMessage;
  value: T;
}

/** A topic's decoder (the contracts' `TOPICS.<id>.decode`, the same definition its producers encode with). */
export type Decoder<T> = (value: Buffer | null, headers: IHeaders | undefined) => { ok: true; value: T } | { ok: false; code: string; message: string };

/** What a handler made of a batch: one outcome per message, in order, and what to do once its effects are durable. */
export interface HandlerResult {
  outcomes: Outcome[];
  /** Runs after the effects are durable (the state transaction committed): publish new state to memory, never before. */
  committed?: () => void;
}

/** What a handler is told besides the messages: the partition, the span's `traceparent` (tracing middleware), and what its offsets strategy adds. */
export interface BatchContext {
  partition: number;
  /** The batch's `traceparent`: its span's with tracing on, else the first message's (as it came). */
  traceparent?: string | undefined;
}

/** Applies one partition's decoded messages. A thrown retryable error retries the batch; any other is narrowed to the message at fault. */
export type Handler<T, C extends BatchContext = BatchContext> = (messages: ConsumedMessage<T>[], context: C) => Promise<HandlerResult | Outcome[]>;

/** Wraps a handler (tracing, metrics): what every message of every consumer goes through, declared once. */
export type Middleware<T, C extends BatchContext = BatchContext> = (next: Handler<T, C>) => Handler<T, C>;

export function resultOf(result: HandlerResult | Outcome[]): HandlerResult {
  return Array.isArray(result) ? { outcomes: result } : result;
}
