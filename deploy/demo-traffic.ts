/**
 * A small traffic generator for the demo project, so the demo's tiles move:
 * CPU and memory metrics, uptime checks, deployments (some from GitHub, the
 * odd failure), an Alertmanager alert firing and resolving, and the odd
 * error, about 2 events a second. It sends a first round at once, so every
 * tile of deploy/demo-tiles.ts leaves `unknown` within seconds, then keeps a
 * schedule counted in demo seconds. deploy/up.sh starts it (deploy/demo-traffic.sh).
 *
 * Usage: node --import tsx deploy/demo-traffic.ts [GATEWAY_URL] [--tempo N] [--duration S]
 *   PULSEBOARD_DEMO_API_KEY (required) and PULSEBOARD_DEMO_PROJECT_KEY (default demo) in the environment.
 *   --tempo N: N demo seconds per real second (tests use 20); --duration S: stop after S real seconds.
 */
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { tempo: { type: 'string', default: '1' }, duration: { type: 'string' } } });
const url = positionals[0] ?? process.env.PULSEBOARD_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.PULSEBOARD_DEMO_API_KEY ?? '';
const projectKey = process.env.PULSEBOARD_DEMO_PROJECT_KEY ?? 'demo';
const tempo = Number(args.tempo);
const durationMs = args.duration === undefined ? Infinity : Number(args.duration) * 1000;

if (apiKey === '') fail('PULSEBOARD_DEMO_API_KEY is not set (deploy/seed-demo.ts prints it)');
if (!(tempo > 0 && tempo <= 1000)) fail('--tempo must be a number above 0, at most 1000');
if (!(durationMs > 0)) fail('--duration must be a positive number of seconds');

function fail(message: string): never {
  console.error(`demo-traffic: ${message}`);
  process.exit(1);
}

type Event = { type: string; name: string; source?: string; severity?: string; attributes?: Record<string, unknown> };

// A seeded generator (mulberry32): the same demo every time.
let seed = 28;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let cpu = 55;
let alertFiring = false;

/** The events of demo second `s` (0 is the first round: one of everything). */
function eventsAt(s: number): Event[] {
  const events: Event[] = [];
  // CPU wanders, with a spike now and then: ok, warning (80) and critical (95) within a minute.
  cpu = Math.min(99, Math.max(20, cpu + (random() - 0.45) * 12));
  if (s % 40 >= 25 && s % 40 < 33) cpu = Math.max(cpu, 82 + random() * 16);
  events.push({ type: 'metric', name: 'cpu_usage', source: 'web-1', attributes: { value: Math.round(cpu * 10) / 10, unit: 'percent', host: 'web-1' } });
  if (s % 2 === 0) events.push({ type: 'metric', name: 'memory_usage', source: 'web-1', attributes: { value: Math.round(60 + random() * 25), unit: 'percent', host: 'web-1' } });
  if (s % 5 === 0) {
    const up = s === 0 || random() > 0.15;
    events.push({ type: 'uptime', name: 'http_check', source: 'checker', severity: up ? 'info' : 'error', attributes: { is_up: up, status_code: up ? 200 : 503, latency_ms: Math.round(40 + random() * 200), url: 'https://api.example.com/health' } });
  }
  // A deployment every 20 s, from GitHub every other time; one in five fails.
  const round = Math.floor(s / 20);
  const source = round % 2 === 0 ? 'github' : 'ci';
  const version = `1.${round}.0`;
  if (s % 20 === 0) events.push({ type: 'deployment', name: 'deploy_started', source, attributes: { version, environment: 'production' } });
  if (s % 20 === 8) events.push({ type: 'deployment', name: random() < 0.2 ? 'deploy_failed' : 'deploy_finished', source, attributes: { version, environment: 'production' } });
  // Alertmanager's HighLatency alert fires and resolves every 30 s.
  if (s % 30 === 0) {
    alertFiring = !alertFiring;
    events.push({ type: 'error', name: 'alert', source: 'alertmanager', severity: alertFiring ? 'critical' : 'info', attributes: { resolved: !alertFiring, alertname: 'HighLatency' } });
  }
  // The odd error: about one in eight seconds.
  if (s === 0 || random() < 0.125) events.push({ type: 'error', name: 'exception', source: 'web-1', severity: 'error', attributes: { message: 'TimeoutError: upstream took too long', route: '/api/orders' } });
  return events;
}

let sent = 0;
let failed = 0;

async function send(event: Event): Promise<void> {
  const body = JSON.stringify({ project_key: projectKey, timestamp: new Date().toISOString(), ...event });
  try {
    const res = await fetch(`${url}/ingest`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (res.status === 401) fail('the API key was refused (401): deploy/seed-demo.ts issued a new one; restart with it');
    if (res.status === 201) sent++;
    else failed++;
  } catch {
    failed++; // the gateway restarting: the schedule goes on
  }
}

const started = Date.now();
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => (stopping = true));
console.log(`demo-traffic: sending to ${url} for project ${projectKey}, tempo ${tempo}`);
let lastReport = started;
for (let s = 0; !stopping && Date.now() - started < durationMs; s++) {
  // Sequential within a second: the engine sees them in this order.
  for (const event of eventsAt(s)) await send(event);
  if (Date.now() - lastReport >= 60_000) {
    console.log(`demo-traffic: ${sent} events sent, ${failed} not accepted`);
    lastReport = Date.now();
  }
  const next = started + ((s + 1) * 1000) / tempo;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
}
console.log(`demo-traffic: stopped after ${sent} events sent, ${failed} not accepted`);
