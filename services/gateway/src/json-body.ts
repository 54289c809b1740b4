import type { FastifyInstance } from 'fastify';
import { jsonTextMayHoldUnstorable, PulseboardError } from '@pulseboard/contracts';
import { jsonHasMoreValuesThan } from './json-values.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's text held no `\u` escape, so no string in it can be unstorable (storable-input.ts skips its walk). */
    bodyEscapeFree?: boolean;
    /** The JSON body's text (decoded), kept only on requests with an Idempotency-Key (its fingerprint covers it) or on routes that sign it (`rawBody`). */
    bodyText?: string;
  }
  interface FastifyContextConfig {
    /** The route needs the body's exact text (e.g. to check a signature over it): kept as `request.bodyText`. */
    rawBody?: boolean;
  }
}

/**
 * Fastify's own JSON parser (secure-json-parse, `__proto__` and `constructor`
 * refused), plus notes taken from the text while it is still at hand: whether
 * it holds a `\u` escape at all (validation skips its walk for NUL and lone
 * surrogates when it does not, which is nearly always), and, for an
 * idempotent request or a route that verifies a signature, the text itself.
 * `contentTypes` adds JSON media types of its own to a scope (CloudEvents').
 *
 * A body of more than `maxValues` JSON values is refused (413) before it is
 * parsed: a 1 MiB array of tiny values costs the event loop tens of
 * milliseconds to parse and far more to validate, while the scan that refuses
 * it costs about one (BODY_MAX_JSON_VALUES, docs/ingest.md).
 * An empty body of a DELETE is no body.
 */
export function registerJsonBodyParser(app: FastifyInstance, options: { maxValues: number; contentTypes?: string[] }): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const contentTypes = options.contentTypes ?? ['application/json'];
  if (contentTypes.includes('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser(contentTypes, { parseAs: 'string' }, (request, body, done) => {
    // A DELETE takes no body: clients that set Content-Type on every request send an empty one.
    if (body === '' && request.method === 'DELETE') {
      done(null, undefined);
      return;
    }
    if (jsonHasMoreValuesThan(body as string, options.maxValues)) {
      done(
        new PulseboardError('payload_too_large', {
          message: `The request body holds more than ${options.maxValues} JSON values (array items and object fields)`,
        }),
        undefined,
      );
      return;
    }
    request.bodyEscapeFree = !jsonTextMayHoldUnstorable(body as string);
    if (request.headers['idempotency-key'] !== undefined || request.routeOptions.config.rawBody === true) request.bodyText = body as string;
    // fastify's default parser answers through done (its type also allows a parser that returns a promise).
    void parse(request, body as string, done);
  });
}
