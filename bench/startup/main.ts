/**
 * bench:startup: each service started as development runs it (TypeScript
 * sources through tsx) and as production does (the compiled dist/ of
 * `pnpm build`), alternately, against the real Kafka, Postgres and Redis.
 * Prints, per service, the median time from spawn to its `<service>_started`
 * event and its resident memory then, and the compiled : tsx ratio.
 *
 *   pnpm build && pnpm bench:startup [--rounds 5] [--only gateway,store]
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { migrateAll, serviceNames } from '@pulseboard/db';
import { SOURCE_NODE_ARGS, serviceTestEnv, TEST_DATABASE_URL } from '@pulseboard/test-kit';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, only: { type: 'string' } } });
const ROUNDS = Number(values.rounds);
const SERVICES = values.only?.split(',') ?? serviceNames(root);

interface Start {
  ms: number;
  rssMb: number;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

/** Spawns, waits for the started event, reads the memory, stops it. */
async function startOnce(service: string, argv: string[]): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...process.env, ...serviceTestEnv(), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const event = `"event":"${service.replaceAll('-', '_')}_started"`;
  const out: string[] = [];
  const ms = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out.push(chunk.toString());
      if (chunk.toString().includes(event)) resolve(performance.now() - t0);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${service} exited (${code}) before starting:\n${out.join('').slice(-2000)}`)));
  });
  const rss = rssMb(child.pid!);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { ms, rssMb: rss };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  for (const service of SERVICES) {
    if (!existsSync(`${root}services/${service}/dist/main.js`)) throw new Error(`services/${service}/dist/main.js is missing: run pnpm build first`);
  }
  await migrateAll(TEST_DATABASE_URL, root);
  console.log(`bench:startup: ${ROUNDS} alternating starts per service and variant; node ${process.version}`);
  console.log(`  ${'service'.padEnd(14)} ${'tsx (src)'.padStart(22)} ${'compiled (dist)'.padStart(22)}   ratio time / memory`);
  for (const service of SERVICES) {
    const tsx: Start[] = [];
    const compiled: Start[] = [];
    await startOnce(service, [`services/${service}/dist/main.js`]); // warm the page cache and the broker's metadata
    for (let i = 0; i < ROUNDS; i++) {
      tsx.push(await startOnce(service, [...SOURCE_NODE_ARGS, `services/${service}/src/main.ts`]));
      compiled.push(await startOnce(service, [`services/${service}/dist/main.js`]));
    }
    const cell = (xs: Start[]) =>
      `${median(xs.map((x) => x.ms))
        .toFixed(0)
        .padStart(6)} ms ${median(xs.map((x) => x.rssMb))
        .toFixed(0)
        .padStart(5)} MiB`;
    const ratio = (pick: (s: Start) => number) => (median(compiled.map(pick)) / median(tsx.map(pick))).toFixed(2);
    console.log(`  ${service.padEnd(14)} ${cell(tsx).padStart(22)} ${cell(compiled).padStart(22)}   ${ratio((s) => s.ms)} / ${ratio((s) => s.rssMb)}`);
  }
}

await main();
