/**
 * What a handler decided for one message; the consumer (consume) applies it.
 * - ok: effects are durable; the offset may be committed.
 * - drop: nothing to do (e.g. a message this consumer does not care about).
 * - dead_letter: bad data; parked on the dead-letter topic with why and where from.
 * Whole-batch trouble (a dependency outage) is a thrown retryable error instead:
 * the batch is retried with capped backoff and nothing is committed meanwhile.
 */
export type Outcome = { kind: 'ok' } | { kind: 'drop'; reason: string } | { kind: 'dead_letter'; code: string; message: string };

export const OK: Outcome = { kind: 'ok' };

export function deadLetter(code: string, message: string): Outcome {
  return { kind: 'dead_letter', code, message };
}
