import { OK, type Outcome } from '../outcome.ts';
import type { BatchContext, ConsumedMessage, Handler, Middleware } from './types.ts';

/**
 * A span around a batch: the child of its first message's trace, linked to the others'; the work is
 * given the span's `traceparent`. With tracing off, an implementation passes the first message's own.
 */
export type BatchSpan = <R>(
  messages: readonly ConsumedMessage<unknown>[],
  attributes: Record<string, string>,
  work: (traceparent: string | undefined) => Promise<R>,
) => Promise<R>;

/** The tracing middleware: every batch in a span (the consumer's partition as an attribute); the handler learns the span's `traceparent`. */
export function traced<T, C extends BatchContext>(span: BatchSpan): Middleware<T, C> {
  return (next) => (messages, context) =>
    span(messages, { 'messaging.destination.partition.id': String(context.partition) }, (traceparent) => next(messages, { ...context, traceparent }));
}

/** The handlers wrapped by the middleware, the first given outermost. */
export function withMiddleware<T, C extends BatchContext>(handler: Handler<T, C>, middleware: readonly Middleware<T, C>[] = []): Handler<T, C> {
  return middleware.reduceRight((next, wrap) => wrap(next), handler);
}

/**
 * A handler from a function of one message (readers that apply each message on its own: fan-out
 * feeds). A message it fails on is dropped (logged, `onDrop`), never retried: a feed's reader must
 * not see a message twice, and what it missed is read again from its owner. With `yieldEvery`, the
 * event loop is given back every that many messages, so a firehose does not hold other sockets up.
 */
export function eachMessage<T>(handle: (value: T, message: ConsumedMessage<T>, context: BatchContext) => void | Promise<void>, yieldEvery = 0): Handler<T> {
  return async (messages, context) => {
    const outcomes: Outcome[] = [];
    for (const message of messages) {
      if (yieldEvery > 0 && outcomes.length > 0 && outcomes.length % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        await handle(message.value, message, context);
        outcomes.push(OK);
      } catch (error) {
        outcomes.push({ kind: 'drop', reason: `handler_failed: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
    return outcomes;
  };
}
