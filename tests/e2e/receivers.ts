import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** The status this receiver answered. */
  status?: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
}

/**
 * A local HTTP receiver (webhook and Slack): records every request; `answer`
 * decides each reply, and may hold it (a slow target, or one whose caller dies first).
 */
export async function httpReceiver(answer: (r: Received, count: number) => Reply | Promise<Reply> = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      received.push(r);
      void Promise.resolve(answer(r, received.filter((x) => x.path === r.path).length)).then((reply) => {
        r.status = reply.status;
        if (!res.destroyed) res.writeHead(reply.status, reply.headers).end('ok');
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  // `target`: the exact address and port a pipeline allows for it (NOTIFY_ALLOW_TARGETS).
  return { url: `http://127.0.0.1:${port}`, target: `127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A local SMTP server (the smtp-server package): records each message's envelope and raw text. */
export async function smtpReceiver() {
  const mails: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}
