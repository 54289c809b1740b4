import { request as httpRequest } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * An HTTP request from a chosen local address (any of 127.0.0.0/8 on Linux),
 * with the path sent exactly as given (no normalisation of `..` or `%2e`):
 * how tests play several clients, and clients that try to climb out of a path.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  // The path as written, not as URL() normalised it.
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path, method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            // not JSON: the text, for the assertion to show
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
