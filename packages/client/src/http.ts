import { parseRetryAfter } from './backoff.ts';
import { apiError, PulseboardNetworkError } from './errors.ts';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface HttpRequest {
  method: string;
  url: string;
  token: string | undefined;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** One HTTP exchange: the parsed answer when 2xx, a PulseboardApiError otherwise, a PulseboardNetworkError when there was none. */
export async function httpCall(req: HttpRequest): Promise<HttpResult> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
  let response: Response;
  let text: string;
  try {
    response = await req.fetch(req.url, { method: req.method, headers, body: req.body as string | undefined, signal: AbortSignal.timeout(req.timeoutMs) });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PulseboardNetworkError(`${req.method} ${req.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, error);
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  if (response.status >= 200 && response.status < 300) return { status: response.status, headers: response.headers, body };
  throw apiError(response.status, body, parseRetryAfter(response.headers.get('retry-after')), text.slice(0, 200) || response.statusText);
}

/** An Idempotency-Key: a UUID (crypto.randomUUID is missing on plain-http pages, so random bytes then). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Gzip with the standard CompressionStream (Node 18+ and every current browser): no Node-only module in the browser build. */
export async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
