import type { FastifyInstance } from 'fastify';
import { jsonTextMayHoldUnstorable } from '@pulseboard/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's text held no `\u` escape, so no string in it can be unstorable (see contracts). */
    bodyEscapeFree?: boolean;
    /** The JSON body's text (decoded), kept only on requests with an Idempotency-Key: its fingerprint covers it. */
    bodyText?: string;
  }
}

/**
 * Fastify's own JSON parser (secure-json-parse, `__proto__` and `constructor`
 * refused), plus notes taken from the text while it is still at hand: whether
 * it holds a `\u` escape at all (validation skips its walk for NUL and lone
 * surrogates when it does not, which is nearly always), and, for an
 * idempotent request, the text itself.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.bodyEscapeFree = !jsonTextMayHoldUnstorable(body as string);
    if (request.headers['idempotency-key'] !== undefined) request.bodyText = body as string;
    parse(request, body as string, done);
  });
}
