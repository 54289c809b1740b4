import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer of the gateway carries. `nosniff` on all of them: a
 * browser takes a body for what its Content-Type says, never for a script or
 * a page it guessed. `no-store` on the API (`/api/...`, the admin API
 * included) and the ingest endpoints: answers carry new API keys and user
 * tokens (project creation, key regeneration, POST /api/v1/tokens) and
 * tenants' data, none of which a shared cache or the browser's may keep.
 * The API reference (`/docs`) may be cached.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!request.url.startsWith('/docs')) reply.header('cache-control', 'no-store');
  });
}
