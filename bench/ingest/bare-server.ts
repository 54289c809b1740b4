/**
 * The baseline of bench:ingest: a bare fastify route answering 201 with a small
 * JSON body, on the same machine. Fastify comes from the gateway's own
 * dependencies, so both run the very same version; like the gateway it parses
 * the JSON body and logs nothing per request.
 */
import { createRequire } from 'node:module';

interface Reply {
  code(status: number): { send(body: unknown): unknown };
}
interface App {
  post(path: string, handler: (request: unknown, reply: Reply) => Promise<unknown>): void;
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}
const require = createRequire(new URL('../../services/gateway/package.json', import.meta.url));
const Fastify = require('fastify') as (options: { logger: boolean }) => App;

const app = Fastify({ logger: false });
app.post('/ingest', async (_request, reply) => reply.code(201).send({ status: 'accepted', event_id: 1, message: 'Event accepted for processing' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(JSON.stringify({ event: 'bare_started', address }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
