// The gateway's REST API, reached through the broadcast service's /api/ pass-through
// (same origin: the page's CSP allows no other host).
export const session = sessionStorage; // the token lives here only: never in the URL, gone with the tab

/**
 * A link may carry a credential in its fragment (`#project=demo&token=evu_…`, as
 * deploy/up.sh prints it): the browser never sends a fragment to a server. It is
 * moved to the tab's storage and cleared from the address bar (and history), so
 * it is neither bookmarked nor shown. True when a token was taken.
 */
export function takeFragmentCredentials(): boolean {
  if (!location.hash.includes('token=')) return false;
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token')?.trim() ?? '';
  const project = params.get('project') ?? '';
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  if (token === '') return false;
  session.setItem('pb-token', token);
  if (project !== '') session.setItem('pb-project', project);
  return true;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.getItem('pb-token') ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/api/v1${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = json?.error ?? {};
    throw new ApiError(res.status, error.code ?? 'http_error', error.message ?? `HTTP ${res.status}`, error.details);
  }
  return json as T;
}

/** "field: problem" lines of a validation error, or its message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError && error.details)
    return Object.entries(error.details)
      .map(([field, problems]) => `${field}: ${problems.join(', ')}`)
      .join('; ');
  return error instanceof Error ? error.message : String(error);
}

export type Status = 'unknown' | 'ok' | 'warning' | 'critical' | 'stale';

export interface Tile {
  id: string | number;
  project_key: string;
  name: string;
  kind: string;
  rule: {
    filter?: Record<string, unknown>;
    evaluation: { kind: string; [k: string]: unknown };
    pending?: string;
    recovery?: string;
    stale_after?: string;
    group_by?: string;
  };
  settings: Record<string, unknown>;
  position: number;
  notification_service_ids: Array<string | number>;
}

export interface TileState {
  tile_id: string | number;
  tile_name: string;
  status: Status;
  value: unknown;
  version: number;
  changed_at: string | null;
}

/** GET /projects/:id/refusals: requests the limits refused lately, and which limit refused the latest. */
export interface Refusals {
  project_key: string;
  since: string;
  count: number;
  rate_limited: number;
  quota_exceeded: number;
  last: { at: string; status: 429 | 402; reason: string; limit: number; message: string } | null;
}

export interface Page<T> {
  data: T[];
  meta: { current_page: number; total_pages: number; total_count?: number };
}

/** Every page of a list (bounded by the server's caps: tiles per project, services per account). */
export async function listAll<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= 50; page++) {
    const res = await api<Page<T>>('GET', `${path}${sep}per_page=100&page=${page}`);
    out.push(...res.data);
    if (page >= res.meta.total_pages) break;
  }
  return out;
}
