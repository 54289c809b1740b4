import { backoffDelay, sleep } from './backoff.ts';
import { isRetryable, PulseboardApiError } from './errors.ts';
import type { operations } from './generated/openapi.ts';
import { httpCall } from './http.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** The success body of an operation, from the generated OpenAPI types. */
export type Success<K extends keyof operations> = operations[K]['responses'] extends infer R
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer B }
      ? Json<B>
      : undefined
  : never;
/** The query parameters of an operation. */
export type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;
/** The JSON request body of an operation. */
export type RequestBody<K extends keyof operations> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export interface ReadApiOptions {
  url: string;
  /** A project key (`evk_…`: that project) or a user token (`evu_…`: the account's projects, notifications). */
  token: string;
  requestTimeoutMs?: number;
  /** Attempts of a GET on network errors, 503 and 429 (honouring Retry-After). Default 3. */
  readAttempts?: number;
  fetch?: typeof fetch;
}

/**
 * The read and management API (`/api/v1/...`), typed from docs/openapi.json.
 * Refusals throw PulseboardApiError with the contract's code and details.
 */
export class ReadApi {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: ReadApiOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  readonly events = {
    list: (query: Query<'getApiV1Events'> = {}) => this.call<'getApiV1Events'>('GET', '/api/v1/events', query),
    /** `id`: the integer or `evt_<id>`. */
    get: (id: number | string) => this.call<'getApiV1EventsId'>('GET', `/api/v1/events/${encodeURIComponent(String(id))}`),
  };

  readonly projects = {
    list: (query: Query<'getApiV1Projects'> = {}) => this.call<'getApiV1Projects'>('GET', '/api/v1/projects', query),
    get: (projectKey: string) => this.call<'getApiV1ProjectsId'>('GET', `/api/v1/projects/${encodeURIComponent(projectKey)}`),
  };

  readonly tiles = {
    list: (query: Query<'getApiV1Tiles'> = {}) => this.call<'getApiV1Tiles'>('GET', '/api/v1/tiles', query),
    get: (id: number) => this.call<'getApiV1TilesId'>('GET', `/api/v1/tiles/${id}`),
    state: (id: number) => this.call<'getApiV1TilesIdState'>('GET', `/api/v1/tiles/${id}/state`),
    create: (body: RequestBody<'postApiV1Tiles'>) => this.call<'postApiV1Tiles'>('POST', '/api/v1/tiles', undefined, body),
    update: (id: number, body: RequestBody<'putApiV1TilesId'>) => this.call<'putApiV1TilesId'>('PUT', `/api/v1/tiles/${id}`, undefined, body),
    delete: (id: number) => this.call<'deleteApiV1TilesId'>('DELETE', `/api/v1/tiles/${id}`),
    /** The tile's rule replayed over its stored events, compared with its live state (`dry_run: false` applies it). */
    replay: (id: number, body: RequestBody<'postApiV1TilesIdReplay'>) =>
      this.call<'postApiV1TilesIdReplay'>('POST', `/api/v1/tiles/${id}/replay`, undefined, body),
  };

  readonly notifications = {
    list: (query: Query<'getApiV1Notifications'> = {}) => this.call<'getApiV1Notifications'>('GET', '/api/v1/notifications', query),
    deliveries: (id: number, query: Query<'getApiV1NotificationsIdDeliveries'> = {}) =>
      this.call<'getApiV1NotificationsIdDeliveries'>('GET', `/api/v1/notifications/${id}/deliveries`, query),
  };

  rateLimits(query: Query<'getApiV1RateLimits'> = {}) {
    return this.call<'getApiV1RateLimits'>('GET', '/api/v1/rate_limits', query);
  }

  private async call<K extends keyof operations>(method: string, path: string, query?: object, body?: unknown): Promise<Success<K>> {
    const url = `${this.base}${path}${queryString(query)}`;
    const attempts = method === 'GET' ? Math.max(1, this.options.readAttempts ?? 3) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await httpCall({
          method,
          url,
          token: this.options.token,
          ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
          timeoutMs: this.options.requestTimeoutMs ?? 30_000,
          fetch: this.fetchFn,
        });
        return result.body as Success<K>;
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw error;
        await sleep(backoffDelay(attempt - 1, {}, error instanceof PulseboardApiError ? error.retryAfterMs : undefined));
      }
    }
  }
}

/** `?a=1&label=x&label=y`: arrays repeat their name, undefined is left out. */
export function queryString(query: object | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
