/**
 * bench:events-read: what the events indexes buy the read API and cost the
 * store. On N stored events (default 10,000,000 over 100 projects, half in
 * the one asked about, 30 days of day partitions: bench/list-events' data) in
 * a database of its own, it prints
 *   - p50/p99 of each documented filter of GET /api/v1/events (the read API's
 *     own page and count statements, one request at a time), with the
 *     previous index set ("old": the eight of migration 1764892800000) and the
 *     one the migrations give now ("new");
 *   - the same filter's p50/p99 without its own index (what the index buys);
 *   - µs per row of the store's COPY into events with each set, and with the
 *     new set less each one of its indexes (what each index costs a write).
 *
 *   pnpm bench:events-read [--rows 10000000] [--requests 200] [--without-requests 10]
 *                          [--write-rows 50000] [--rounds 3] [--database NAME] [--keep]
 *
 * Needs Postgres (deploy/infra.sh up). The database (default
 * pb_events_read_<random>) is dropped at the end unless --keep; --database
 * with --keep lets a second run reuse the loaded rows.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateAll } from '../../packages/db/src/index.ts';
import { localDatabaseUrl } from '../../packages/test-kit/src/index.ts';
import { hotCount, loadEvents, loadedCount, loadedTotal } from '../list-events/load.ts';
import { ms } from '../list-events/measure.ts';
import { OLD_SET, applySet, migratedSet, sameSet, without, type IndexSet } from './index-sets.ts';
import { measureFilters, FILTER_INDEXES, type FilterFigures } from './reads.ts';
import { copyCost, renderWrites } from './writes.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    requests: { type: 'string', default: '200' },
    'without-requests': { type: 'string', default: '10' },
    'write-rows': { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const WRITE_ROWS = Number(args['write-rows']);
const DATABASE = args.database ?? `pb_events_read_${randomBytes(4).toString('hex')}`;
const DATABASE_URL = localDatabaseUrl(DATABASE);
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line: string) => console.log(line);

async function withAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: localDatabaseUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Runs `work` with events carrying `set`'s indexes: as they are, or inside a transaction rolled back after. */
async function withSet<T>(client: pg.ClientBase, current: IndexSet, set: IndexSet, work: () => Promise<T>): Promise<T> {
  if (sameSet(set, current)) return work();
  await client.query('BEGIN');
  try {
    await applySet(client, current, set);
    return await work();
  } finally {
    await client.query('ROLLBACK');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  log(`bench:events-read: ${ROWS} events over 100 projects, ${hotCount(ROWS)} in the project asked about, database ${DATABASE}`);
  await withAdmin(`CREATE DATABASE ${DATABASE}`).catch((error: { code?: string }) => {
    if (error.code !== '42P04') throw error; // already there (--database): reused
  });
  await migrateAll(DATABASE_URL, root);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  // A filter without its index may read the whole project: bounded, so the run ends.
  await client.query("SET statement_timeout = '60s'");
  try {
    if ((await loadedCount(client)) !== loadedTotal(ROWS)) await loadEvents(client, ROWS, log);
    else log('  events already loaded');
    const current = await migratedSet(client);
    const sets = sameSet(OLD_SET, current) ? [current] : [OLD_SET, current];
    if (sets.length === 1) log(`  the old and new index sets are the same (${current.indexes.length} indexes)`);
    const now = Date.now();

    const reads: { set: string; figures: FilterFigures[] }[] = [];
    for (const set of sets) {
      log(`\nfirst page (per_page 25) and total_count, ${args.requests} requests per filter, index set ${set.name}:`);
      const figures = await withSet(client, current, set, () => measureFilters(client, Number(args.requests), hotCount(ROWS), now, log));
      reads.push({ set: set.name, figures });
    }

    log(`\neach equality filter without its own index (new set), ${args['without-requests']} requests:`);
    const bare: Record<string, FilterFigures> = {};
    for (const [filter, index] of Object.entries(FILTER_INDEXES)) {
      const [figures] = await withSet(client, current, without(current, index), () =>
        measureFilters(client, Number(args['without-requests']), hotCount(ROWS), now, log, [filter]),
      );
      if (figures !== undefined) bare[filter] = figures;
    }

    log(`\nthe store's COPY of ${WRITE_ROWS} events into today's partition, ${args.rounds} rounds per set (median):`);
    const partition = `events_p${new Date(now).toISOString().slice(0, 10).replaceAll('-', '')}`;
    const { rows: top } = await client.query<{ max: string }>('SELECT coalesce(max(id), 0)::text AS max FROM events');
    const rows = renderWrites(WRITE_ROWS, Number(top[0]!.max) + 1);
    const writeSets = [...sets, ...current.indexes.map((x) => without(current, x.name)), { name: 'no index', indexes: [] }];
    const costs = new Map<string, number[]>(writeSets.map((s) => [s.name, []]));
    // A first round unmeasured (caches); then the sets in turn, every other round in reverse order.
    for (let round = -1; round < Number(args.rounds); round++) {
      for (const set of round % 2 === 0 ? [...writeSets].reverse() : writeSets) {
        const cost = await copyCost(client, current, set, partition, rows, WRITE_ROWS);
        if (round >= 0) costs.get(set.name)!.push(cost);
        // The rolled-back rows' index entries would make the next copy's indexes bigger.
        await client.query(`VACUUM ${client.escapeIdentifier(partition)}`);
      }
    }
    const cost = (name: string) => median(costs.get(name)!);
    for (const set of writeSets) {
      const all = costs.get(set.name)!;
      log(`  ${set.name.padEnd(52)} ${cost(set.name).toFixed(1).padStart(6)} µs/row (${Math.min(...all).toFixed(1)}-${Math.max(...all).toFixed(1)})`);
    }

    printSummary(reads, bare, sets, current, cost);
  } finally {
    await client.end();
    if (!args.keep) await withAdmin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}

function printSummary(
  reads: { set: string; figures: FilterFigures[] }[],
  bare: Record<string, FilterFigures>,
  sets: IndexSet[],
  current: IndexSet,
  cost: (name: string) => number,
): void {
  log(`\nsummary (${ROWS} events; ms, SQL of the page and its count; "bare" = without the filter's own index):`);
  log(`  ${'filter'.padEnd(26)} ${reads.map((r) => `${r.set.slice(0, 3)} p50  ${r.set.slice(0, 3)} p99`.padStart(18)).join(' ')} ${'bare p99'.padStart(9)}`);
  for (const [i, row] of reads[0]!.figures.entries()) {
    const cells = reads.map((r) => `${ms(r.figures[i]!.p50).padStart(8)} ${ms(r.figures[i]!.p99).padStart(8)}`).join(' ');
    log(`  ${row.name.padEnd(26)} ${cells} ${ms(bare[row.name]?.p99 ?? NaN).padStart(9)}`);
  }
  const newReads = reads.at(-1)!.figures;
  const worst = newReads.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  log(`  worst p99 with the new set: ${ms(worst.p99)} ms (${worst.name}); target 50 ms`);
  const oldCost = cost(sets[0]!.name);
  const newCost = cost(current.name);
  log(`  COPY into events: old ${oldCost.toFixed(1)} µs/row, new ${newCost.toFixed(1)} µs/row, new/old ${(newCost / oldCost).toFixed(2)}`);
  log(`  each index of the new set costs a write (µs/row, the set with it less the set without it):`);
  for (const index of current.indexes) log(`    ${index.name.padEnd(44)} ${(newCost - cost(`without ${index.name}`)).toFixed(1).padStart(6)}`);
  log(`  no index at all: ${cost('no index').toFixed(1)} µs/row`);
}

await main();
