import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Transform } from 'node:stream';
import { apiError } from './replies.ts';

/**
 * Accepts `Content-Encoding: gzip` (and deflate) request bodies. Fastify's body
 * limit then counts the decoded bytes, so a small zip bomb meets the same 1 MiB
 * limit as a plain body.
 */
export function registerRequestDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding === undefined || encoding === '' || encoding === 'identity') return payload;
    let decoder: Transform;
    if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
    else if (encoding === 'deflate') decoder = createInflate();
    else throw Object.assign(new Error(`Content-Encoding ${encoding} is not supported; use gzip`), { statusCode: 415, pulseboard: apiError(415, 'unsupported_media_type', `Content-Encoding ${encoding} is not supported; use gzip`) });
    // Fastify compares Content-Length with what the client sent, i.e. the encoded bytes.
    const decoded = decoder as Transform & { receivedEncodedLength: number };
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (error) => decoded.destroy(error));
    return payload.pipe(decoded);
  });
}
