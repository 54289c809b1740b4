// The compose smoke test's webhook receiver (a container on the stack's
// network): records every request; GET /received lists them.
import { createServer } from 'node:http';

const received = [];
createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/received') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
      return;
    }
    received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
}).listen(8099, '0.0.0.0', () => console.log('receiver listening on 8099'));
