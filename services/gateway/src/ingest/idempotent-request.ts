import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { IdempotencyStore, PublishAttempt } from './idempotency.ts';

/** What an ingest handler produced: a response to send and keep for retries (errors are thrown). */
export interface Produced {
  status: number;
  body: unknown;
  /** Sent, and kept with the response for replays. */
  headers?: Record<string, string | number>;
}

/** What a run of an ingest handler learns from, and tells, the key's record. */
export interface IdempotentRun {
  /** Ids of an earlier attempt of this request whose fate is unknown: to be reused. */
  resume: PublishAttempt | undefined;
  /** To be awaited with the ids before the events are handed to Kafka (it stores them with the key); absent without a key. */
  record: ((attempt: PublishAttempt) => Promise<void>) | undefined;
}

const WITHOUT_KEY: IdempotentRun = { resume: undefined, record: undefined };

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `Idempotency-Key` around an ingest handler: the first request with a key runs
 * and its success is kept for 24 h; a retry gets that response back (with
 * `Idempotent-Replayed: true`) and produces nothing. A refused or failed attempt
 * keeps no response, so the retry really runs; if its events had been handed to
 * Kafka, the retry reuses their ids (see IdempotencyStore).
 */
export async function withIdempotency(
  deps: { idempotency: IdempotencyStore; logger: Logger },
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { endpoint: string; projectKey: string; /** Instead of the Idempotency-Key header (e.g. GitHub's delivery id). */ key?: string },
  run: (attempt: IdempotentRun) => Promise<Produced>,
): Promise<FastifyReply> {
  const claim = await deps.idempotency.claim(
    scope.projectKey,
    scope.endpoint,
    scope.key ?? headerValue(request.headers['idempotency-key']),
    request.bodyText ?? '',
  );
  if (claim.kind === 'replay') {
    const stored = claim.response;
    if (stored.headers !== undefined) reply.headers(stored.headers);
    return reply.code(stored.status).header('idempotent-replayed', 'true').send(stored.body);
  }
  if (claim.kind === 'none') return send(reply, await run(WITHOUT_KEY));

  let handedOver = claim.resume;
  let produced: Produced;
  try {
    produced = await run({
      resume: claim.resume,
      record: async (attempt) => {
        await claim.recordAttempt(attempt);
        handedOver = attempt;
      },
    });
  } catch (error) {
    await (handedOver === undefined ? claim.release() : claim.keepForRetry(handedOver)).catch(() => undefined);
    throw error;
  }
  // The events are in Kafka: answer success even if the response cannot be kept.
  await claim
    .complete({ status: produced.status, body: produced.body, ...(produced.headers === undefined ? {} : { headers: produced.headers }) })
    .catch((error: unknown) => {
      deps.logger.warn({ event: 'idempotency_store_failed', endpoint: scope.endpoint, project_key: scope.projectKey, err: error });
    });
  return send(reply, produced);
}

function send(reply: FastifyReply, produced: Produced): FastifyReply {
  if (produced.headers !== undefined) reply.headers(produced.headers);
  return reply.code(produced.status).send(produced.body);
}
