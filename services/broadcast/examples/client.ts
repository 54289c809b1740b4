/**
 * A small client of the broadcast protocol (docs/protocol.md): subscribes to a
 * project, prints each tile change, and on a disconnect reconnects with
 * `since` = the last position it saw, so it misses nothing. What retrying
 * cannot fix ends it with exit code 1: a credential refused at the upgrade
 * (401) or later (4001, 4003), or the project's subscription refused.
 *
 *   PULSEBOARD_TOKEN=evk_... node --import tsx services/broadcast/examples/client.ts ws://127.0.0.1:8081/ws <project_key>
 */
import WebSocket from 'ws';

const [url = 'ws://127.0.0.1:8081/ws', project] = process.argv.slice(2);
const token = process.env.PULSEBOARD_TOKEN;
if (project === undefined || token === undefined) throw new Error('usage: PULSEBOARD_TOKEN=... client.ts <ws url> <project_key>');

let position: number | undefined;
let retryMs = 500;

function giveUp(why: string): never {
  console.error(why);
  process.exit(1);
}

function connect(): void {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  ws.on('unexpected-response', (_request, response) => {
    if (response.statusCode === 401 || response.statusCode === 403) giveUp(`credential refused (HTTP ${response.statusCode})`);
    ws.terminate(); // another answer (a proxy's 502, say): 'close' follows, and a retry
  });
  ws.on('open', () => {
    retryMs = 500;
    ws.send(JSON.stringify(position === undefined ? { type: 'subscribe', project } : { type: 'subscribe', project, since: position }));
  });
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'snapshot') {
      position = message.position;
      for (const t of message.tiles) console.log(`${t.tile_name}: ${t.status} (${JSON.stringify(t.value)})`);
    } else if (message.type === 'change') {
      const c = message.change;
      position = c.position;
      console.log(`${c.changed_at} ${c.tile_name}: ${c.previous_status} -> ${c.status} (${JSON.stringify(c.value)}) v${c.version}`);
    } else if (message.type === 'error') {
      giveUp(`refused: ${message.code}: ${message.message}`);
    }
  });
  ws.on('close', (code) => {
    if (code === 4001 || code === 4003) giveUp(`credential refused (${code})`);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  });
  ws.on('error', () => undefined); // 'close' follows
}

connect();
