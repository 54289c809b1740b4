import type { FastifyInstance, FastifyRequest } from 'fastify';
import { passThroughClient } from '@pulseboard/config';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The address failed authentications and per-address limits count for:
     * the browser's when the request proves it came through broadcast's
     * pass-through (INTERNAL_PROXY_SECRET), else fastify's `ip` (the TCP peer,
     * or what a TRUST_PROXY proxy says). Computed when read.
     */
    readonly clientAddress: string;
  }
}

export function registerClientAddress(app: FastifyInstance, proxySecretHash: Buffer | undefined): void {
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest): string {
      return passThroughClient(proxySecretHash, this.headers) ?? this.ip;
    },
  });
}
