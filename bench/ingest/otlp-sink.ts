import { createServer } from 'node:http';
import { once } from 'node:events';

/** A local OTLP/HTTP receiver for the bench: answers every export at once and counts the spans (JSON bodies). */
export async function otlpSink(): Promise<{ url: string; spans(): number; close(): Promise<void> }> {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
        for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += ss.spans?.length ?? 0;
      } catch {
        // not JSON: counted as nothing
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    spans: () => spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
