/**
 * A small traffic generator for the demo project, so the demo's tiles move:
 * CPU and memory metrics, uptime checks, deployments (some from GitHub, the
 * odd failure), an Alertmanager alert firing and resolving, and the odd
 * error, about 2 events a second (deploy/demo-schedule.ts). It sends a first
 * round at once, so every tile of deploy/demo-tiles.ts leaves `unknown` within
 * seconds, then keeps a schedule counted in demo seconds, sent in one batch
 * (POST /api/v1/webhooks) every BATCH_SECONDS: within the limits seed-demo.ts
 * gives the demo project, so it is never refused. deploy/up.sh starts it
 * (deploy/demo-traffic.sh). Its log counts events and requests refused (429/402).
 *
 * Usage: node --import tsx deploy/demo-traffic.ts [GATEWAY_URL] [--tempo N] [--duration S] [--demo-seconds D]
 *   PULSEBOARD_DEMO_API_KEY (required) and PULSEBOARD_DEMO_PROJECT_KEY (default demo) in the environment.
 *   --tempo N: N demo seconds per real second (tests use 20); --duration S: stop after S real seconds;
 *   --demo-seconds D: stop after D demo seconds of the schedule (all of them sent, however long that takes).
 */
import { parseArgs } from 'node:util';
import { demoSchedule, flushesAfter, type DemoEvent } from './demo-schedule.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { tempo: { type: 'string', default: '1' }, duration: { type: 'string' }, 'demo-seconds': { type: 'string' } },
});
const url = positionals[0] ?? process.env.PULSEBOARD_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.PULSEBOARD_DEMO_API_KEY ?? '';
const projectKey = process.env.PULSEBOARD_DEMO_PROJECT_KEY ?? 'demo';
const tempo = Number(args.tempo);
const durationMs = args.duration === undefined ? Infinity : Number(args.duration) * 1000;
const demoSeconds = args['demo-seconds'] === undefined ? Infinity : Number(args['demo-seconds']);

if (apiKey === '') fail('PULSEBOARD_DEMO_API_KEY is not set (deploy/seed-demo.ts prints it)');
if (!(tempo > 0 && tempo <= 1000)) fail('--tempo must be a number above 0, at most 1000');
if (!(durationMs > 0)) fail('--duration must be a positive number of seconds');
if (!(demoSeconds > 0)) fail('--demo-seconds must be a positive number');

function fail(message: string): never {
  console.error(`demo-traffic: ${message}`);
  process.exit(1);
}

const eventsAt = demoSchedule();

let sent = 0;
let failed = 0;
/** Requests refused by a limit (429 rate limit, 402 quota): the demo project's limits are too low for the schedule. */
let refused = 0;

async function send(events: DemoEvent[], at: number[]): Promise<void> {
  // Each event keeps the time of its demo second: a batch carries a few seconds of the schedule.
  const body = JSON.stringify({
    project_key: projectKey,
    events: events.map((event, i) => ({ project_key: projectKey, timestamp: new Date(at[i]!).toISOString(), ...event })),
  });
  try {
    const res = await fetch(`${url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status === 401) fail('the API key was refused (401): deploy/seed-demo.ts issued a new one; restart with it');
    if (res.status === 201 || res.status === 202) sent += events.length;
    else {
      failed += events.length;
      if (res.status === 429 || res.status === 402) {
        refused++;
        console.log(`demo-traffic: refused (${res.status}): ${text.slice(0, 300)}`);
      }
    }
  } catch {
    failed += events.length; // the gateway restarting: the schedule goes on
  }
}

const started = Date.now();
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => (stopping = true));
console.log(`demo-traffic: sending to ${url} for project ${projectKey}, tempo ${tempo}`);
let lastReport = started;
const report = () => `${sent} events sent, ${failed} not accepted, ${refused} requests refused`;
let pending: DemoEvent[] = [];
let pendingAt: number[] = [];
for (let s = 0; s < demoSeconds && !stopping && Date.now() - started < durationMs; s++) {
  const at = started + (s * 1000) / tempo;
  for (const event of eventsAt(s)) {
    pending.push(event);
    pendingAt.push(at);
  }
  // One request at a time: the engine sees the events in this order.
  if (flushesAfter(s)) {
    await send(pending, pendingAt);
    pending = [];
    pendingAt = [];
  }
  if (Date.now() - lastReport >= 60_000) {
    console.log(`demo-traffic: ${report()}`);
    lastReport = Date.now();
  }
  const next = started + ((s + 1) * 1000) / tempo;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
}
if (pending.length > 0) await send(pending, pendingAt);
console.log(`demo-traffic: stopped after ${report()}`);
