import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A request body the dashboard sends the API (tiles, notification services) is small; the gateway bounds it again. */
const MAX_BODY_BYTES = 262144;
const TIMEOUT_MS = 30000;
const FORWARDED_REQUEST = ['authorization', 'content-type', 'accept', 'idempotency-key'];
const FORWARDED_RESPONSE = ['content-type', 'retry-after', 'x-request-id'];

/**
 * `/api/v1/*` passed through to the gateway (BROADCAST_API_URL), so the dashboard
 * calls its API on its own origin: no CORS on the gateway, and the page's CSP keeps
 * `connect-src 'self'`. Only the request's method, path, query, credential and
 * body go on; the answer comes back as the gateway gave it. This is the browser's
 * request relayed, not broadcast talking to the gateway: broadcast reads nothing of it.
 */
export function registerApiPass(app: FastifyInstance, apiUrl: string): void {
  const base = apiUrl.replace(/\/+$/, '');
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
    const pass = async (request: FastifyRequest, reply: FastifyReply) => {
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_REQUEST) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      headers['x-forwarded-for'] = request.ip;
      let res: Response;
      try {
        res = await fetch(`${base}${request.url}`, {
          method: request.method,
          headers,
          body: request.method === 'GET' || request.method === 'HEAD' ? null : ((request.body as Buffer | undefined) ?? null),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'manual',
        });
      } catch {
        return reply.code(503).header('retry-after', '1').send({ error: { code: 'service_unavailable', message: 'The API is unreachable from the dashboard, retry shortly' } });
      }
      for (const name of FORWARDED_RESPONSE) {
        const value = res.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      reply.header('cache-control', 'no-store');
      return reply.code(res.status).send(Buffer.from(await res.arrayBuffer()));
    };
    scope.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api/v1/*', handler: pass });
  });
}
