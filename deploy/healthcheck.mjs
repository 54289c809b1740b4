// The image's HEALTHCHECK: GET /healthz of the service this container runs
// (read from PID 1's command line, services/<name>/dist/main.js), on the port its
// environment gives, else the service's default. Containers that run no
// service (the migrations) are healthy while they run.
import { readFileSync } from 'node:fs';

const PORTS = {
  gateway: ['GATEWAY_PORT', 8080],
  store: ['STORE_HTTP_PORT', 9102],
  'rule-engine': ['RULE_ENGINE_HTTP_PORT', 9103],
  broadcast: ['BROADCAST_PORT', 8081],
  notification: ['NOTIFICATION_HTTP_PORT', 9104],
};

const argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
const service = argv.map((a) => /services\/([a-z-]+)\/dist\/main\.js$/.exec(a)?.[1]).find(Boolean);
if (service === undefined || PORTS[service] === undefined) process.exit(0);
const [variable, fallback] = PORTS[service];
const port = Number(process.env[variable] ?? fallback);
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
