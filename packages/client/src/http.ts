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

interface NodeZlib {
  gzip(data: string, options: { level: number }, callback: (error: Error | null, result: Uint8Array) => void): void;
}
let nodeZlib: Promise<NodeZlib | undefined> | undefined;

/** node:zlib where there is one (Node, Deno, Bun); the browser build keeps this import out (external) and never reaches it. */
function loadNodeZlib(): Promise<NodeZlib | undefined> {
  if (nodeZlib === undefined) {
    const onNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
    nodeZlib = onNode ? import('node:zlib').then((m) => m as unknown as NodeZlib).catch(() => undefined) : Promise.resolve(undefined);
  }
  return nodeZlib;
}

/**
 * Gzip. On Node: zlib at level 1 on its thread pool (a fraction of the CPU of
 * CompressionStream's level 6 through web streams, for a body within 1% of the
 * size). In a browser: the standard
 * CompressionStream (no level to choose); the browser build bundles no Node
 * module (its one `import('node:zlib')` is left external and not reached there).
 */
export async function gzip(text: string): Promise<Uint8Array> {
  const zlib = await loadNodeZlib();
  if (zlib !== undefined) {
    return new Promise((resolve, reject) => zlib.gzip(text, { level: 1 }, (error, result) => (error === null ? resolve(result) : reject(error))));
  }
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
