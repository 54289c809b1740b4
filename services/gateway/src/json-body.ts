import type { FastifyInstance } from 'fastify';
import { jsonTextMayHoldUnstorable } from '@pulseboard/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's text held no `\u` escape, so no string in it can be unstorable (see contracts). */
    bodyEscapeFree?: boolean;
  }
}

/**
 * Fastify's own JSON parser (secure-json-parse, `__proto__` and `constructor`
 * refused), plus one note taken from the text while it is still at hand: whether
 * it holds a `\u` escape at all. Validation skips its walk for NUL and lone
 * surrogates when it does not, which is nearly always.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.bodyEscapeFree = !jsonTextMayHoldUnstorable(body as string);
    parse(request, body as string, done);
  });
}
