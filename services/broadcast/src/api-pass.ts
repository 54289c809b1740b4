import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROXY_CLIENT_HEADER, PROXY_SECRET_HEADER } from '@pulseboard/config';

/** A request body the dashboard sends the API (tiles, notification services) is small; the gateway bounds it again. */
const MAX_BODY_BYTES = 262144;
const TIMEOUT_MS = 30000;
const FORWARDED_REQUEST = ['authorization', 'content-type', 'accept', 'idempotency-key'];
const FORWARDED_RESPONSE = ['content-type', 'retry-after', 'x-request-id'];

/** A path segment that names a resource (an id): nothing that could climb, separate or be decoded again. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The documented /api/v1 routes the dashboard calls (packages/dashboard/app),
 * as segments after /api/v1; `:id` stands for one id segment. Nothing else
 * passes: not the admin API, /metrics, /readyz, /docs or the OpenAPI document.
 */
const ROUTES: Record<string, readonly string[]> = {
  tiles: ['GET', 'POST'],
  'tiles/preview': ['POST'],
  'tiles/:id': ['GET', 'PUT', 'DELETE'],
  'tiles/:id/history': ['GET'],
  'tiles/:id/state': ['GET'],
  // The tile editor's "apply to the past" after a rule change.
  'tiles/:id/replay': ['POST'],
  notifications: ['GET', 'POST'],
  'notifications/:id': ['GET', 'PUT', 'DELETE'],
  'notifications/:id/deliveries': ['GET'],
  'notifications/:id/send': ['POST'],
  'notifications/:id/send_message': ['POST'],
  // The project, with how far behind live its tiles are (the header's freshness).
  'projects/:id': ['GET'],
  // Whether the project's events are being refused (the banner over its tiles).
  'projects/:id/refusals': ['GET'],
};

/**
 * The gateway path a pass-through request may go to, or undefined. The path is
 * read as the gateway would read it, segment by segment with percent-decoding,
 * and refused when a segment is empty (`//`), `.` or `..` (in any encoding), or
 * decodes to a slash or backslash; what passes is rebuilt from the checked
 * segments, so the gateway sees exactly the route that was allowed.
 */
export function passThroughPath(method: string, rawUrl: string): string | undefined {
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rawUrl.slice(queryAt);
  if (!path.startsWith('/api/v1/')) return undefined;
  const segments: string[] = [];
  for (const raw of path.slice('/api/v1/'.length).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\%]/.test(segment)) return undefined;
    segments.push(segment);
  }
  const allowed = Object.entries(ROUTES).some(([route, methods]) => {
    const parts = route.split('/');
    return methods.includes(method) && parts.length === segments.length && parts.every((p, i) => (p === ':id' ? ID.test(segments[i]!) : p === segments[i]));
  });
  if (!allowed) return undefined;
  return `/api/v1/${segments.map(encodeURIComponent).join('/')}${query}`;
}

/**
 * `/api/v1/*` passed through to the gateway (BROADCAST_API_URL), so the dashboard
 * calls its API on its own origin: no CORS on the gateway, and the page's CSP keeps
 * `connect-src 'self'`. Only the dashboard's own routes pass (`passThroughPath`;
 * anything else is 404 here), and only the request's method, path, query,
 * credential and body go on; the answer comes back as the gateway gave it. This
 * is the browser's request relayed, not broadcast talking to the gateway:
 * broadcast reads nothing of it. With INTERNAL_PROXY_SECRET the gateway is told
 * the browser's address, so its failed-authentication throttle and limits count
 * the browser, not broadcast.
 */
export function registerApiPass(app: FastifyInstance, apiUrl: string, internalSecret = ''): void {
  const base = apiUrl.replace(/\/+$/, '');
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
    const pass = async (request: FastifyRequest, reply: FastifyReply) => {
      // As the gateway answers itself: the API's JSON is never sniffed into something a browser would run.
      reply.header('x-content-type-options', 'nosniff');
      const path = passThroughPath(request.method, request.raw.url ?? '');
      if (path === undefined) {
        return reply
          .code(404)
          .header('cache-control', 'no-store')
          .send({ error: { code: 'not_found', message: 'Resource not found' } });
      }
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_REQUEST) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      headers['x-forwarded-for'] = request.ip;
      if (internalSecret !== '') {
        headers[PROXY_SECRET_HEADER] = internalSecret;
        headers[PROXY_CLIENT_HEADER] = request.ip;
      }
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method: request.method,
          headers,
          body: request.method === 'GET' || request.method === 'HEAD' ? null : ((request.body as Buffer | undefined) ?? null),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'manual',
        });
      } catch {
        return reply
          .code(503)
          .header('retry-after', '1')
          .send({ error: { code: 'service_unavailable', message: 'The API is unreachable from the dashboard, retry shortly' } });
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
