import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import type { ApiError } from '../replies.ts';

/** What an ingest handler produced: a response to send (and keep for retries), or an error. */
export type Produced =
  | { status: number; body: unknown; headers?: Record<string, string | number> }
  | { error: ApiError; headers?: Record<string, string | number> };

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `Idempotency-Key` around an ingest handler: the first request with a key runs
 * and its success is kept for 24 h; a retry gets that response back (with
 * `Idempotent-Replayed: true`) and produces nothing. Errors are not kept, so a
 * retry after a 429 or 503 really runs.
 */
export async function withIdempotency(
  deps: Pick<GatewayDeps, 'idempotency' | 'logger'>,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { endpoint: string; projectKey: string; fail: (reply: FastifyReply, error: ApiError) => FastifyReply },
  run: () => Promise<Produced>,
): Promise<FastifyReply> {
  const claim = await deps.idempotency.claim(options.projectKey, options.endpoint, headerValue(request.headers['idempotency-key']), request.body);
  if (claim.kind === 'refused') return options.fail(reply, claim.error);
  if (claim.kind === 'replay') {
    const stored = claim.response;
    if (stored.headers !== undefined) reply.headers(stored.headers);
    return reply.code(stored.status).header('idempotent-replayed', 'true').send(stored.body);
  }
  let produced: Produced;
  try {
    produced = await run();
  } catch (error) {
    if (claim.kind === 'claimed') await claim.release().catch(() => undefined);
    throw error;
  }
  if (produced.headers !== undefined) reply.headers(produced.headers);
  if ('error' in produced) {
    if (claim.kind === 'claimed') await claim.release().catch(() => undefined);
    return options.fail(reply, produced.error);
  }
  if (claim.kind === 'claimed') {
    // The events are in Kafka: answer success even if the response cannot be kept.
    await claim.complete({ status: produced.status, body: produced.body, ...(produced.headers === undefined ? {} : { headers: produced.headers }) }).catch((error: unknown) => {
      deps.logger.warn({ event: 'idempotency_store_failed', endpoint: options.endpoint, project_key: options.projectKey, err: error });
    });
  }
  return reply.code(produced.status).send(produced.body);
}
