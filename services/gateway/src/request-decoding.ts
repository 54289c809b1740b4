import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Transform } from 'node:stream';
import { PulseboardError } from '@pulseboard/contracts';

/**
 * Accepts `Content-Encoding: gzip` (and deflate) request bodies. Fastify's body
 * limit then counts the decoded bytes, so a small zip bomb meets the same 1 MiB
 * limit as a plain body.
 */
export function registerRequestDecoding(app: FastifyInstance): void {
  // Callback style, not async: a plain body (nearly every request) passes without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding === undefined || encoding === '' || encoding === 'identity') {
      done(null, payload);
      return;
    }
    let decoder: Transform;
    if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
    else if (encoding === 'deflate') decoder = createInflate();
    else {
      done(new PulseboardError('unsupported_media_type', { message: `Content-Encoding ${encoding} is not supported; use gzip` }));
      return;
    }
    // Fastify compares Content-Length with what the client sent, i.e. the encoded bytes.
    const decoded = decoder as Transform & { receivedEncodedLength: number };
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (error) => decoded.destroy(error));
    done(null, payload.pipe(decoded));
  });
}
