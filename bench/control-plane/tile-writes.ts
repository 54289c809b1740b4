/**
 * bench:tile-writes: the latency of a tile write (PUT /api/v1/tiles/:id, a
 * rule change) on an idle gateway, sequential, against the same run's GET of
 * the same tile (authentication and the tile lookup, no write): the write's
 * own cost is the difference. Since issue 23 a tile write also bumps the
 * project's revision, writes the control outbox row and sets the revision in
 * Redis. Run it in a checkout from before (the same file copied there) for
 * the before/after comparison.
 *
 *   pnpm bench:tile-writes [--writes 300]   (TILE_WRITES_DATABASE_URL: a database of its own)
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { freePort, provisionProject, serviceTestEnv, spawnService, TEST_ADMIN_TOKEN } from '@pulseboard/test-kit';

const { values: args } = parseArgs({ options: { writes: { type: 'string', default: '300' } } });
const WRITES = Number(args.writes);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function timed(url: string, init: RequestInit): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status}`);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const port = await freePort();
  const databaseUrl = process.env.TILE_WRITES_DATABASE_URL;
  const env = serviceTestEnv({
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    GATEWAY_PORT: String(port),
    GATEWAY_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'true',
    TOPIC_EVENTS: `bench.tw.${randomUUID().slice(0, 8)}.events`,
  });
  const gateway = await spawnService('gateway', env);
  const url = `http://127.0.0.1:${port}`;
  try {
    const project = await provisionProject(url, TEST_ADMIN_TOKEN, {});
    const headers = { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' };
    const rule = (w: number) => ({
      filter: { type: 'metric', name: 'cpu' },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 50 + (w % 40), critical: 95 },
    });
    const created = await fetch(`${url}/api/v1/tiles`, { method: 'POST', headers, body: JSON.stringify({ name: 'CPU', kind: 'metric', rule: rule(0) }) });
    const tile = ((await created.json()) as { data: { id: number } }).data.id;
    // Warm-up: connections, caches, JIT.
    for (let w = 0; w < 30; w++) {
      await timed(`${url}/api/v1/tiles/${tile}`, { headers });
      await timed(`${url}/api/v1/tiles/${tile}`, { method: 'PUT', headers, body: JSON.stringify({ rule: rule(w) }) });
    }
    const reads: number[] = [];
    const writes: number[] = [];
    for (let w = 0; w < WRITES; w++) {
      reads.push(await timed(`${url}/api/v1/tiles/${tile}`, { headers }));
      writes.push(await timed(`${url}/api/v1/tiles/${tile}`, { method: 'PUT', headers, body: JSON.stringify({ rule: rule(w + 1) }) }));
    }
    reads.sort((a, b) => a - b);
    writes.sort((a, b) => a - b);
    console.log(
      `tile writes (PUT, sequential, idle gateway): ${WRITES}, p50 ${pct(writes, 50).toFixed(2)} ms, p99 ${pct(writes, 99).toFixed(2)} ms; ` +
        `reads of the same tile (GET): p50 ${pct(reads, 50).toFixed(2)} ms, p99 ${pct(reads, 99).toFixed(2)} ms; write minus read p50 ${(pct(writes, 50) - pct(reads, 50)).toFixed(2)} ms`,
    );
  } finally {
    await gateway.kill('SIGTERM');
  }
}

await main();
