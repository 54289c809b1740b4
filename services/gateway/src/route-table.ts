import type { FastifyInstance, FastifySchema } from 'fastify';

/** One method and URL of the gateway's HTTP surface, with its schemas as declared. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  errorShape: 'ingest' | 'envelope';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after `collectRouteTable`, in order (the fuzzing suite drives each). */
    routeTable: readonly RouteEntry[];
  }
}

/** Records each route as it is registered (fastify keeps no public list of them). */
export function collectRouteTable(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, schema: route.schema, errorShape: route.config?.errorShape ?? 'envelope' });
    }
  });
}
