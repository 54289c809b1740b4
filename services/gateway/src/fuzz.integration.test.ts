import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contracts from '@pulseboard/contracts';
import { ERROR_CATALOG } from '@pulseboard/contracts';
import { anyJson, fc, nastyString, provisionProject, request, schemaArbitrary, TEST_ADMIN_TOKEN, type SchemaResolver } from '@pulseboard/test-kit';
import { startTestGateway } from '../test/test-gateway.ts';

import * as adminSchemas from './control/admin-schemas.ts';
import * as integrationSecretSchemas from './control/integration-secret-schemas.ts';
import * as notificationSchemas from './control/notification-schemas.ts';
import * as projectSchemas from './control/project-schemas.ts';
import * as tileSchemas from './control/tile-schemas.ts';
import type { RouteEntry } from './route-table.ts';

/** How long the suite drives the gateway (FUZZ_SECONDS, default 40): bounded, so it fits CI. */
const FUZZ_MS = Number(process.env.FUZZ_SECONDS ?? '40') * 1000;
/** Generated requests per route in the coverage pass that comes before the random phase. */
const COVERAGE_RUNS = 3;
const PUBLIC_CODES = new Set(
  Object.entries(ERROR_CATALOG)
    .filter(([, entry]) => !('answeredAs' in entry))
    .map(([code]) => code),
);
const QUERY_NAMES = [
  'page',
  'per_page',
  'project_key',
  'name',
  'source',
  'label',
  'type',
  'severity',
  'channel',
  'correlation_id',
  'since',
  'until',
  'from',
  'to',
  'status',
  'limit',
  'kind',
];

/** Every schema with an `$id` the routes may name, from contracts and the control plane's modules. */
function schemaResolver(): SchemaResolver {
  const byId = new Map<string, Record<string, unknown>>();
  for (const module of [contracts, adminSchemas, integrationSecretSchemas, notificationSchemas, projectSchemas, tileSchemas] as Record<string, unknown>[]) {
    for (const value of Object.values(module)) {
      if (typeof value === 'object' && value !== null && typeof (value as { $id?: unknown }).$id === 'string')
        byId.set((value as { $id: string }).$id, value as Record<string, unknown>);
    }
  }
  return (ref) => byId.get(ref.replace(/#$/, ''));
}

/** The documented error shapes (spec 7): `{status:"error", code, message, details?}` on /ingest, `{error:{code, message, details?}}` elsewhere. */
function shapeProblem(route: RouteEntry | undefined, path: string, body: unknown): string | undefined {
  const ingest = route === undefined ? path.startsWith('/ingest') : route.errorShape === 'ingest';
  const error = (ingest ? body : (body as { error?: unknown } | undefined)?.error) as
    { status?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  if (typeof error !== 'object' || error === null) return 'no error object';
  if (ingest && error.status !== 'error') return 'status is not "error"';
  if (typeof error.code !== 'string' || !PUBLIC_CODES.has(error.code)) return `code ${String(error.code)} is not a public catalog code`;
  if (typeof error.message !== 'string' || error.message === '') return 'no message';
  if (error.details !== undefined) {
    if (typeof error.details !== 'object' || error.details === null) return 'details is not an object';
    for (const messages of Object.values(error.details))
      if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string')) return 'details are not lists of strings';
  }
  return undefined;
}

/**
 * This gateway runs without a rule engine, so applying a replay (dry_run false) waits for an
 * engine that never takes it and answers its documented 503; any other 5xx is a failure.
 */
function awaitsAbsentEngine(route: RouteEntry, status: number, body: unknown): boolean {
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return route.method === 'POST' && route.url === '/api/v1/tiles/:id/replay' && status === 503 && code === 'service_unavailable';
}

/** A path parameter as a URL segment: lone surrogates cannot be percent-encoded, so they go as the bytes of one. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

describe('fuzzing every route of the route table with schema-driven inputs', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let main: Awaited<ReturnType<typeof provisionProject>>;
  let victim: Awaited<ReturnType<typeof provisionProject>>;
  let other: Awaited<ReturnType<typeof provisionProject>>;
  const ids: Record<string, string[]> = {};

  beforeAll(async () => {
    gateway = await startTestGateway({ WEBHOOK_OUTCOME_TIMEOUT_MS: '0', NOTIFY_SEND_TIMEOUT_MS: '200' });
    const big = { burstLimit: 1_000_000, hourlyLimit: 1_000_000, monthlyQuota: 1_000_000 };
    main = await provisionProject(gateway.url, TEST_ADMIN_TOKEN, big);
    victim = await provisionProject(gateway.url, TEST_ADMIN_TOKEN, big);
    other = await provisionProject(gateway.url, TEST_ADMIN_TOKEN, big);
    const tile = await request(`${gateway.url}/api/v1/tiles`, {
      token: main.apiKey,
      body: { name: 'fuzzed', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'is_up' } } },
    });
    const service = await request(`${gateway.url}/api/v1/notifications`, {
      token: main.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
    });
    const users = await request(`${gateway.url}/api/v1/admin/accounts/${victim.accountId}/users`, { token: TEST_ADMIN_TOKEN });
    // Valid ids (the fuzz sometimes hits real resources) next to the other accounts' and nonsense.
    ids.project = [main.projectKey, other.projectKey];
    ids.tile = [String(tile.body.data.id), '1'];
    ids.notification = [String(service.body.data.id), '1'];
    ids.account = [String(main.accountId), String(other.accountId)];
    // Routes that destroy or rotate what they name get the victim's ids, so the fuzz keeps its credentials.
    ids.destructive = [victim.projectKey, String(victim.accountId), String(users.body.data?.[0]?.id ?? 1)];
    ids.event = ['1', 'evt_1', '9007199254740993'];
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it(
    `answers every generated request below 500, every 4xx in the documented shape (for ${FUZZ_MS / 1000} s)`,
    async () => {
      const routes = gateway.app.routeTable.filter((r) => r.url !== '/metrics');
      expect(routes.length).toBeGreaterThan(30);
      const resolve = schemaResolver();
      const bodyOverrides: Record<string, unknown> = {
        '/ingest': contracts.eventEnvelopeSchema,
        '/api/v1/webhooks': { anyOf: [contracts.webhookEventSchema, contracts.webhookBatchSchema] },
      };
      const credentials = [
        main.apiKey,
        main.userToken,
        TEST_ADMIN_TOKEN,
        other.apiKey,
        other.userToken,
        undefined,
        'evk_not-a-key',
        'evu_not-a-token',
        'garbage',
      ];

      const idFor = (route: RouteEntry, name: string) => {
        const destructive = route.method === 'DELETE' || route.url.endsWith('/regenerate_key') || route.url.endsWith('/token');
        if (destructive) return fc.oneof(fc.constantFrom(...ids.destructive!), nastyString);
        const pool = route.url.includes('/tiles')
          ? ids.tile
          : route.url.includes('/notifications')
            ? ids.notification
            : route.url.includes('/events')
              ? ids.event
              : route.url.includes('/accounts')
                ? ids.account
                : ids.project;
        return name === 'key'
          ? fc.oneof(fc.constantFrom(...ids.project!), nastyString)
          : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool!) }, { weight: 2, arbitrary: nastyString });
      };

      const requestFor = (route: RouteEntry) => {
        const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
        const paramArbs = Object.fromEntries(params.map((name) => [name, idFor(route, name)]));
        const declaredBody = route.schema?.body ?? bodyOverrides[route.url];
        const body =
          route.method === 'GET' || route.method === 'DELETE'
            ? fc.constant(undefined)
            : declaredBody === undefined
              ? anyJson
              : schemaArbitrary(declaredBody as Record<string, unknown>, resolve);
        const query =
          route.schema?.querystring !== undefined
            ? schemaArbitrary(route.schema.querystring as Record<string, unknown>, resolve, { mutation: 0.3 })
            : fc.dictionary(
                fc.constantFrom(...QUERY_NAMES),
                fc.oneof(fc.constantFrom('1', '0', '-1', '100', main.projectKey, 'metric', 'evt_1', '2030-01-01T00:00:00Z'), nastyString),
                { maxKeys: 3 },
              );
        return fc.record({
          params: fc.record(paramArbs),
          query,
          body,
          // Mostly credentials that get past authentication, so the inputs reach validation and handlers.
          token: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...credentials.slice(0, 3)) }, { weight: 2, arbitrary: fc.constantFrom(...credentials) }),
          contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
          raw: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) }),
        });
      };

      const perRoute = new Map<string, number>();
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      let requests = 0;
      const started = Date.now();
      type FuzzInput = ReturnType<typeof requestFor> extends fc.Arbitrary<infer T> ? T : never;
      const probe = async ({ route, input }: { route: RouteEntry; input: FuzzInput }): Promise<boolean> => {
        let path = route.url;
        for (const [name, value] of Object.entries(input.params)) path = path.replace(`:${name}`, segment(String(value)));
        const search = new URLSearchParams();
        if (typeof input.query === 'object' && input.query !== null && !Array.isArray(input.query)) {
          for (const [name, value] of Object.entries(input.query)) search.append(name, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
        }
        const qs = search.toString();
        const url = `${gateway.url}${path}${qs === '' ? '' : `?${qs}`}`;
        const headers: Record<string, string> = input.contentType === undefined ? {} : { 'content-type': input.contentType };
        const rawBody = input.raw ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
        const answer = await request(url, {
          method: route.method,
          ...(input.token === undefined ? {} : { token: input.token }),
          headers,
          ...(rawBody === undefined || route.method === 'GET' ? {} : { rawBody }),
        });
        requests++;
        perRoute.set(`${route.method} ${route.url}`, (perRoute.get(`${route.method} ${route.url}`) ?? 0) + 1);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem =
          answer.status >= 500 && !awaitsAbsentEngine(route, answer.status, answer.body)
            ? `status ${answer.status}`
            : answer.status >= 400
              ? shapeProblem(route, path, answer.body)
              : undefined;
        if (problem !== undefined) {
          failures.push(
            `${route.method} ${url} (${input.token?.slice(0, 4) ?? 'none'}) body ${String(rawBody).slice(0, 200)} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}: ${problem}`,
          );
          return false;
        }
        return true;
      };
      const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
      const report = (error: unknown) => {
        throw new Error(`${failures.slice(0, 5).join('\n')}\n${String(error).slice(0, 2000)}`);
      };
      // Every route first (a few generated requests each), so coverage does not depend on how many
      // requests a loaded machine gets through in the time (at load ~25: 318 requests, 49 of 50 routes);
      // then routes at random until the time is up.
      for (const route of routes) {
        await fc
          .assert(
            fc.asyncProperty(
              requestFor(route).map((input) => ({ route, input })),
              probe,
            ),
            { numRuns: COVERAGE_RUNS, endOnFailure: true, seed },
          )
          .catch(report);
      }
      const left = Math.max(1_000, FUZZ_MS - (Date.now() - started));
      await fc
        .assert(
          fc.asyncProperty(
            fc.constantFrom(...routes).chain((route) => requestFor(route).map((input) => ({ route, input }))),
            probe,
          ),
          { numRuns: 1_000_000, interruptAfterTimeLimit: left, markInterruptAsFailure: false, endOnFailure: true, seed },
        )
        .catch(report);
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `fuzz: ${requests} requests over ${perRoute.size} of ${routes.length} routes in ${seconds.toFixed(1)} s; statuses ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}; 5xx: ${[...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0)}`,
      );
      expect(failures).toEqual([]);
      // Every route was driven, and the generator reached past validation (2xx) as well as refusals.
      expect(perRoute.size).toBe(routes.length);
      expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
      expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(4);
    },
    FUZZ_MS + 120_000,
  );
});
