import type { PoolClient } from 'pg';

/**
 * A statement sent now and looked at later. On a pipelined connection
 * (node-postgres `pipeline: true`) the statements issued after it go out
 * without waiting for its answer, so a transaction's statements share round
 * trips: each one is a wake-up of both processes, which on a small machine
 * costs more than the statement. Its failure is kept (never an unhandled
 * rejection) until `value()` or `error()` is asked for.
 */
export class SentStatement<R> {
  private readonly settled: Promise<{ ok: true; value: R } | { ok: false; error: unknown }>;

  constructor(sent: Promise<R>) {
    this.settled = sent.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }

  /** Its result; throws its error. */
  async value(): Promise<R> {
    const settled = await this.settled;
    if (!settled.ok) throw settled.error;
    return settled.value;
  }

  /** Its error, or undefined once it succeeded. */
  async error(): Promise<unknown> {
    const settled = await this.settled;
    return settled.ok ? undefined : settled.error;
  }
}

/**
 * Runs statements in the order given: on a pipelined connection all are sent
 * at once and awaited together (one wait instead of one per statement); on
 * any other, one after the other (node-postgres queues a second query on a
 * busy client only with a deprecation warning).
 */
export async function inOrder<R extends unknown[]>(tx: PoolClient, statements: { [K in keyof R]: () => Promise<R[K]> }): Promise<R> {
  if (tx.pipeline) return (await Promise.all(statements.map((send) => send()))) as R;
  const results: unknown[] = [];
  for (const send of statements) results.push(await send());
  return results as R;
}
