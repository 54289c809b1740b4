import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

// Only our own script, style, socket and API: no inline code, nothing from elsewhere.
// Inline style *attributes* stay refused; the charts set styles through the CSSOM, which CSP allows.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** packages/dashboard/dist, built by deploy/build.sh: the same relative place from src/ and dist/. */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../../packages/dashboard/dist/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The live dashboard (packages/dashboard, a Preact app): its built files, read
 * once at start. Content-hashed assets are cached for good; the page itself is
 * revalidated so a deploy shows at once.
 */
export function registerDashboard(app: FastifyInstance, dir = DEFAULT_DASHBOARD_DIR): void {
  const headers = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  if (!existsSync(join(dir, 'index.html'))) {
    // Development before a build: say what to do instead of a bare 404.
    app.get('/', async (_request, reply) =>
      reply.code(503).header('content-type', 'text/plain; charset=utf-8').send(`The dashboard is not built (no ${dir}index.html): run bash deploy/build.sh\n`),
    );
    return;
  }
  for (const file of filesUnder(dir)) {
    const path = `/${relative(dir, file).split(sep).join('/')}`;
    const body = readFileSync(file);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const cache = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    app.get(path === '/index.html' ? '/' : path, async (_request, reply) =>
      reply.headers(headers).header('content-type', type).header('cache-control', cache).send(body),
    );
  }
}
