/**
 * bench:dashboard: the dashboard page (packages/dashboard/dist, as built) in
 * Debian's Chromium with 100 tiles, each changing once a second. Prints the
 * time to first render (navigation to 100 cards with their charts drawn) and
 * the frame intervals (requestAnimationFrame, p50/p95/p99/max, frames over
 * 50 ms, long tasks) while the tiles change, against a same-run baseline: the
 * same page with nothing changing (a ratio). Also the same with all 100 changes
 * arriving in one burst each second.
 *
 * The page is fed by a stand-in for broadcast's WebSocket protocol and the few
 * API reads the page makes (tiles, history), serving the built files: what is
 * measured is the browser's cost of drawing changes, not the pipeline's
 * (bench:broadcast measures that).
 *
 *   pnpm bench:dashboard [--tiles 100] [--seconds 10]
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import { readFileSync, existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocketServer, type WebSocket } from 'ws';
import { chromium } from 'playwright-core';

const { values: args } = parseArgs({ options: { tiles: { type: 'string', default: '100' }, seconds: { type: 'string', default: '10' } } });
const TILES = Number(args.tiles);
const SECONDS = Number(args.seconds);
const DIST = fileURLToPath(new URL('../../packages/dashboard/dist/', import.meta.url));
if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no ${DIST}index.html: run bash deploy/build.sh first`);
const PROJECT = 'bench';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ico': 'image/x-icon' };

// Every third tile a status tile, the rest gauges with a line: the mix the demo shows.
const tiles = Array.from({ length: TILES }, (_, i) => ({
  id: i + 1,
  project_key: PROJECT,
  name: `Tile ${i + 1}`,
  kind: 'metric',
  position: i,
  settings: i % 3 === 2 ? {} : { unit: 'percent' },
  notification_service_ids: [],
  rule:
    i % 3 === 2
      ? { filter: { type: 'deployment' }, evaluation: { kind: 'status_map', map: { a: 'ok', b: 'critical' } } }
      : { filter: { name: `m${i}` }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } },
}));
const now = Date.now();
const statusOf = (v: number) => (v >= 95 ? 'critical' : v >= 80 ? 'warning' : 'ok');
// An hour of history per tile, a change a minute: the charts start full.
const history = (id: number) =>
  Array.from({ length: 60 }, (_, k) => {
    const value = Math.round(50 + 45 * Math.sin((id + k) / 5));
    return {
      position: id * 1000 + k,
      tile_id: id,
      status: statusOf(value),
      previous_status: 'ok',
      value,
      unit: 'percent',
      version: k + 1,
      event_id: null,
      cause: 'event',
      changed_at: new Date(now - (60 - k) * 60_000).toISOString(),
    };
  }).reverse();

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/api/v1/tiles') return json({ data: tiles, meta: { current_page: 1, total_pages: 1 } });
  const h = /^\/api\/v1\/tiles\/(\d+)\/history$/.exec(url.pathname);
  if (h) return json({ data: Number(url.searchParams.get('page') ?? 1) > 1 ? [] : history(Number(h[1])), meta: { current_page: 1, total_pages: 1 } });
  if (url.pathname.startsWith('/api/')) return res.writeHead(404).end('{}');
  const file = join(DIST, url.pathname === '/' ? 'index.html' : url.pathname);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
const wss = new WebSocketServer({ server, path: '/ws' });
let position = 1_000_000;
const sockets = new Set<WebSocket>();
const versions = new Map<number, number>(tiles.map((t) => [t.id, 60]));
wss.on('connection', (ws) => {
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    if (m.type === 'auth') ws.send(JSON.stringify({ type: 'ready', kind: 'user', projects: [{ project_key: PROJECT, name: 'Bench' }] }));
    if (m.type === 'subscribe') {
      ws.send(
        JSON.stringify({
          type: 'snapshot',
          project: PROJECT,
          position,
          tiles: tiles.map((t) => ({
            tile_id: t.id,
            tile_name: t.name,
            status: 'ok',
            value: 50,
            version: 60,
            last_event_id: null,
            changed_at: new Date(now - 60_000).toISOString(),
          })),
        }),
      );
      ws.send(JSON.stringify({ type: 'subscribed', project: PROJECT, position, resumed: false }));
      sockets.add(ws);
    }
  });
  ws.on('close', () => sockets.delete(ws));
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

function change(id: number): string {
  const version = (versions.get(id) ?? 0) + 1;
  versions.set(id, version);
  const value = Math.round(50 + 49 * Math.sin(version / 3 + id));
  const tile = tiles[id - 1]!;
  return JSON.stringify({
    type: 'change',
    change: {
      position: ++position,
      tile_id: id,
      project_key: PROJECT,
      tile_name: tile.name,
      status: statusOf(value),
      previous_status: 'ok',
      value,
      previous_value: null,
      version,
      event_id: null,
      changed_at: new Date().toISOString(),
      cause: 'event',
    },
  });
}

/** Every tile once a second: spread evenly (a tick every 1000/TILES ms), or all at once. */
function drive(mode: 'spread' | 'burst'): () => void {
  let next = 1;
  const send = (n: number) => {
    for (let k = 0; k < n; k++) {
      const text = change(next);
      next = (next % TILES) + 1;
      for (const ws of sockets) ws.send(text);
    }
  };
  const timer = mode === 'spread' ? setInterval(() => send(10), 100) : setInterval(() => send(TILES), 1000);
  return () => clearInterval(timer);
}

const FRAMES = `(seconds) => new Promise((resolve) => {
  const gaps = []; let longTasks = 0; let last = performance.now(); const end = last + seconds * 1000;
  const obs = new PerformanceObserver((list) => { longTasks += list.getEntries().length; });
  obs.observe({ type: 'longtask', buffered: false });
  const step = (t) => { gaps.push(t - last); last = t; if (t < end) requestAnimationFrame(step); else { obs.disconnect(); resolve({ gaps, longTasks }); } };
  requestAnimationFrame((t) => { last = t; requestAnimationFrame(step); });
})`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
function summary(r: { gaps: number[]; longTasks: number }) {
  return {
    p50: pct(r.gaps, 50),
    p95: pct(r.gaps, 95),
    p99: pct(r.gaps, 99),
    max: Math.max(...r.gaps),
    over50: r.gaps.filter((g) => g > 50).length,
    frames: r.gaps.length,
    longTasks: r.longTasks,
  };
}
const fmt = (s: ReturnType<typeof summary>) =>
  `p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)}, p99 ${s.p99.toFixed(1)}, max ${s.max.toFixed(1)}; ${s.frames} frames, ${s.over50} over 50 ms, ${s.longTasks} long tasks`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript("sessionStorage.setItem('pb-token', 'bench')");
  const started = Date.now();
  await page.goto(base);
  await page.waitForFunction(
    `document.querySelectorAll('li.tile').length === ${TILES} && document.querySelectorAll('li.tile .chart canvas').length === ${TILES}`,
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  const firstRender = Date.now() - started;
  const inPage = await page.evaluate<number>('performance.now()');
  // History drawn: every gauge's chart has its points (its label names the value range).
  await page.waitForFunction(
    `[...document.querySelectorAll('li.tile .chart')].filter((c) => c.getAttribute('aria-label').includes('value from')).length >= ${Math.floor((TILES * 2) / 3)}`,
    undefined,
    { timeout: 60_000 },
  );
  const withHistory = Date.now() - started;
  console.log(
    `bench:dashboard, ${TILES} tiles (two thirds gauges with a value line, all with a status band), Chromium ${browser.version()}, viewport 1440x900`,
  );
  console.log(
    `time to first render: ${firstRender} ms from navigation to ${TILES} cards with charts (in-page ${inPage.toFixed(0)} ms after navigation start); ${withHistory} ms with every chart's hour of history drawn`,
  );

  const idle = summary(await page.evaluate(`(${FRAMES})(${SECONDS})`));
  console.log(`baseline, nothing changing (${SECONDS} s): ${fmt(idle)}`);
  for (const mode of ['spread', 'burst'] as const) {
    const stop = drive(mode);
    const before = await page.evaluate<number>("document.querySelectorAll('li.tile.changed').length");
    const busy = summary(await page.evaluate(`(${FRAMES})(${SECONDS})`));
    stop();
    void before;
    console.log(
      `${TILES} tiles changing every second, ${mode === 'spread' ? 'spread (10 every 100 ms)' : 'in one burst a second'} (${SECONDS} s): ${fmt(busy)}; p95 ratio to baseline ${(busy.p95 / idle.p95).toFixed(2)}, p99 ${(busy.p99 / idle.p99).toFixed(2)}`,
    );
  }
  // The page kept up: the last change of every tile is on screen.
  const shown = await page.evaluate<number>("document.querySelectorAll('li.tile').length");
  console.log(`cards on screen at the end: ${shown}`);
} finally {
  await browser.close();
  wss.close();
  server.close();
}
