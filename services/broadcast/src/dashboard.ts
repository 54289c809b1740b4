import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const FILES = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
} as const;

// Only our own script, style and socket: no inline code, nothing from elsewhere.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The live dashboard: three static files, read once at start. */
export function registerDashboard(app: FastifyInstance): void {
  for (const [path, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(new URL(`../public/${file}`, import.meta.url));
    app.get(path, async (_request, reply) =>
      reply.header('content-type', type).header('content-security-policy', CSP).header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('cache-control', 'no-cache').send(body),
    );
  }
}
