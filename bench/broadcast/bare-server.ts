/**
 * The baseline of bench:broadcast: a bare @fastify/websocket server that
 * broadcasts the same messages to the same clients, with nothing else (no
 * Kafka, no Postgres, no authentication, no resume). It reads one JSON line
 * per change on stdin (`{"project_key", ...}`) and sends the change to the
 * sockets subscribed to that project (`{"type":"subscribe","project"}`).
 */
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';

const byProject = new Map<string, Set<WebSocket>>();
const app = Fastify({ logger: false });
await app.register(websocket);
app.get('/memory', async () => ({ rss: process.memoryUsage().rss }));
app.register(async (ws) => {
  ws.get('/ws', { websocket: true }, (socket) => {
    socket.on('message', (data) => {
      const { project } = JSON.parse(data.toString()) as { project: string };
      let set = byProject.get(project);
      if (set === undefined) byProject.set(project, (set = new Set()));
      set.add(socket);
      socket.send(JSON.stringify({ type: 'subscribed', project, position: 0 }));
    });
  });
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ address }));
for await (const line of createInterface({ input: process.stdin })) {
  const { project_key: project } = JSON.parse(line) as { project_key: string };
  const frame = `{"type":"change","change":${line}}`;
  for (const socket of byProject.get(project) ?? []) socket.send(frame);
}
