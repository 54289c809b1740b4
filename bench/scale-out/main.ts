/**
 * bench:scale-out (issue 25 item 4): the stack scaled out on one machine,
 * with one project sending half of all events.
 *
 * Two runs, each on its own private Postgres, broker and Redis (bench:pipeline's
 * infra, stack, workload and observer):
 *   scaled: the events topic created with --partitions (12) before the services
 *     start (they create only missing topics), 2 gateways, 3 stores, 3 rule
 *     engines, 1 broadcast, 2 notification services (--instances);
 *   single: one instance of each, the topic as the services create it (6).
 * Each run sends the same deterministic events (drive.ts): a warm-up, then
 * phase `even` (the other projects at --rate/2 events/s, no hot project), then
 * phase `hot` (the same, plus the hot project at --rate/2: half of all events);
 * --phases even,hot,even puts an even phase on both sides (pooled in the summary).
 *
 * The 201 is seen by this process, which shares the machine: when it is
 * starved the 201 arrives late and 201 → change can even be negative. So the
 * same interval is also printed from the event's record create time on the
 * events topic (the gateway's produce, just before its 201) to the change's.
 *
 * Prints, per phase: the consumer lag of every store, rule-engine and
 * notification instance sampled each second (first / last / max, and the max
 * of each third of the sending), the other projects' 201 → tile change on
 * Kafka p50/p99 with and without the hot project and their ratio, CPU cores
 * per instance, the load average; and at the end the final tile states of the
 * scaled run against the single run's (status and value, per tile kind).
 *
 *   pnpm bench:scale-out [--projects 40] [--rate 150] [--seconds 60] [--warmup 10]
 *                        [--partitions 12] [--instances gateway=2,store=3,rule-engine=3,notification=2]
 *                        [--phases even,hot] [--no-single]
 *
 * Events the scaled run did not accept (a 503 under load) are left out of the
 * single run; events the single run does not accept are counted and make the
 * comparison not like for like (printed). A network error is counted as not
 * accepted, though the gateway may have taken the event.
 *
 * Window tiles (count over 5 minutes) depend on the clock: an event leaves the
 * window 5 minutes after its stamp. Their states are compared only when the
 * run read its tiles less than 5 minutes after its first stamp (then every
 * event still counts and the count is order-free); otherwise they are listed
 * as not compared.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TOPICS } from '@pulseboard/contracts';
import { testKafka, waitFor } from '@pulseboard/test-kit';
import { percentile } from '../shared/ingest-driver.ts';
import { treeCpuSeconds } from '../shared/process-cpu.ts';
import { postgresSettingsOf, startInfra, type Infra } from '../pipeline/infra.ts';
import { migrate, startStack, type Service, type Stack } from '../pipeline/stack.ts';
import { provision, TILES_PER_PROJECT } from '../pipeline/workload.ts';
import { Observer } from '../pipeline/observe.ts';
import { ScaleDriver, type Driven } from './drive.ts';
import { LagSampler, type Sample } from './lag.ts';

const { values: args } = parseArgs({
  options: {
    projects: { type: 'string', default: '40' },
    rate: { type: 'string', default: '150' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    partitions: { type: 'string', default: '12' },
    instances: { type: 'string', default: 'gateway=2,store=3,rule-engine=3,notification=2' },
    phases: { type: 'string', default: 'even,hot' },
    'no-single': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (line = '') => console.log(line);
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
const EVENTS = TOPICS.events.name;
const WINDOW_MS = 5 * 60_000;
const KINDS = ['threshold', 'window', 'status_map', 'up_down'] as const;
const HALF = Number(args.rate) / 2;
const SECONDS = Number(args.seconds);

interface PhaseFigures {
  phase: string;
  load: string;
  others: number[];
  hot: number[];
  /** The same from the event's record on Kafka (server clocks only). */
  othersServer: number[];
  hotServer: number[];
  notAccepted: Record<string, number>;
  cores: Record<string, number>;
}

interface RunResult {
  name: string;
  phases: PhaseFigures[];
  tiles: Map<string, { status: string; value: string }>;
  windowsComparable: boolean;
  sent: number[];
  /** Events not answered 201 (`<project index>:<n>`). */
  refused: Set<string>;
}

const fmt = (values: number[]) => (values.length === 0 ? '- / -' : `${percentile(values, 50)} / ${percentile(values, 99)}`);

async function runOnce(
  name: string,
  options: { partitions?: number; instances: Partial<Record<Service, number>>; skip?: ReadonlySet<string> },
): Promise<RunResult> {
  log(
    `\n=== run ${name}: ${JSON.stringify(options.instances)}, events topic ${options.partitions ?? `as the services create it (${TOPICS.events.partitions})`} partitions (${load()})`,
  );
  let stack: Stack | undefined;
  const infra: Infra = await startInfra(root, postgresSettingsOf(root));
  // The services first: they drain through the broker and Postgres (stopped together, every service
  // logged a failed drain step against a broker already gone).
  const stopAll = async () => {
    await stack?.stop().catch(() => undefined);
    await infra.stop();
  };
  const onSignal = () => void stopAll().then(() => process.exit(130));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const kafka = testKafka(infra.brokers);
  const admin = kafka.admin();
  const db = new pg.Pool({ connectionString: infra.databaseUrl, max: 2 });
  // The run's private Postgres stops at its end: an idle client's error then must not end the process.
  db.on('error', () => undefined);
  const observer = new Observer();
  try {
    await migrate(root, infra.databaseUrl);
    await admin.connect();
    if (options.partitions !== undefined) {
      await admin.createTopics({ waitForLeaders: true, topics: [{ ...TOPICS.events.spec(EVENTS), numPartitions: options.partitions, replicationFactor: -1 }] });
    }
    await observer.startReceiver();
    stack = await startStack(root, infra, { instances: options.instances, receiver: new URL(observer.receiverUrl).host });
    const projects = await provision(stack.gateway, stack.adminToken, Number(args.projects), observer.receiverUrl);
    await observer.start(kafka, infra.databaseUrl, stack.broadcast, projects);
    const partitions = (await admin.fetchTopicOffsets(EVENTS)).length;
    log(
      `stack up: ${Object.keys(stack.instancePids()).join(', ')}; ${projects.length} projects x ${TILES_PER_PROJECT} tiles (${projects[0]!.projectKey} is the hot one), ${partitions} event partitions (${load()})`,
    );

    const drained = async () => {
      const high = new Map((await admin.fetchTopicOffsets(EVENTS)).map((o) => [o.partition, Number(o.high)]));
      for (const table of ['store_offsets', 'rule_engine_offsets']) {
        const { rows } = await db.query<{ partition: number; next_offset: string }>(`SELECT partition, next_offset FROM ${table} WHERE topic = $1`, [EVENTS]);
        const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
        for (const [partition, h] of high) if (h > 0 && (stored.get(partition) ?? -1) < h) return false;
      }
      return true;
    };
    const waitDrained = () => waitFor(drained, { timeoutMs: 300_000, intervalMs: 100, what: 'the pipeline to drain' });
    const sampler = new LagSampler(admin, db, [
      { service: 'store', groupId: 'pulseboard-store', topic: EVENTS, table: 'store_offsets' },
      { service: 'rule-engine', groupId: 'pulseboard-rule-engine', topic: EVENTS, table: 'rule_engine_offsets' },
      { service: 'notification', groupId: 'pulseboard-notification', topic: TOPICS.tileChanges.name },
    ]);

    // Stamps start a little behind the clock and advance 1 ms per event of a project (drive.ts).
    const base = Date.now() - 5_000;
    const driver = new ScaleDriver(stack.gateways, projects, base, options.skip);
    if (Number(args.warmup) > 0) {
      await driver.run(HALF, 0, Number(args.warmup));
      await waitDrained();
    }
    const phases: PhaseFigures[] = [];
    for (const phase of args.phases.split(',')) {
      if (phase !== 'even' && phase !== 'hot') throw new Error(`unknown phase ${phase} (even, hot)`);
      const hotRate = phase === 'hot' ? HALF : 0;
      const pids = stack.instancePids();
      const before = Object.fromEntries(Object.entries(pids).map(([label, pid]) => [label, treeCpuSeconds(pid)]));
      const started = Date.now();
      sampler.start(1000);
      const driven: Driven = await driver.run(HALF, hotRate, SECONDS);
      const sendEnded = Date.now() - started;
      await waitDrained();
      const drainedAfter = Date.now() - started - sendEnded;
      const samples = await sampler.stop();
      const windowSeconds = (Date.now() - started) / 1000;
      const cores = Object.fromEntries(Object.entries(pids).map(([label, pid]) => [label, (treeCpuSeconds(pid) - before[label]!) / windowSeconds]));
      // Late tile changes still count (the observer reads them with up to 250 ms of wait).
      await new Promise((r) => setTimeout(r, 1500));
      const figures: PhaseFigures = {
        phase,
        load: load(),
        others: [],
        hot: [],
        othersServer: [],
        hotServer: [],
        notAccepted: Object.fromEntries(driven.other),
        cores,
      };
      for (const [id, [answered, p]] of driven.answered) {
        const changed = observer.arrivals.change.get(id);
        if (changed === undefined) continue;
        (p === 0 ? figures.hot : figures.others).push(changed - answered);
        const produced = observer.arrivals.produced.get(id);
        if (produced !== undefined) (p === 0 ? figures.hotServer : figures.othersServer).push(changed - produced);
      }
      phases.push(figures);
      const hotPartition = [...driven.answered].find(([, [, p]]) => p === 0)?.[0];
      reportPhase(
        name,
        figures,
        driven,
        samples,
        sendEnded,
        drainedAfter,
        hotPartition === undefined ? undefined : observer.arrivals.position.get(hotPartition)?.[0],
      );
    }
    driver.close();
    await new Promise((r) => setTimeout(r, 1000));
    const { rows } = await db.query<{ project_key: string; name: string; status: string | null; value: string | null }>(
      'SELECT t.project_key, t.name, s.status, s.value::text AS value FROM tiles t LEFT JOIN tile_states s ON s.tile_id = t.id',
    );
    const windowsComparable = Date.now() - base < WINDOW_MS - 10_000;
    return {
      name,
      phases,
      tiles: new Map(rows.map((r) => [`${r.project_key}/${r.name}`, { status: r.status ?? 'none', value: r.value ?? 'null' }])),
      windowsComparable,
      sent: [...driver.sent],
      refused: driver.refused,
    };
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await observer.stop().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await db.end().catch(() => undefined);
    await stopAll();
  }
}

function reportPhase(
  run: string,
  f: PhaseFigures,
  driven: Driven,
  samples: Sample[],
  sendEnded: number,
  drainedAfter: number,
  hotPartition: number | undefined,
): void {
  log(
    `\n[${run}] phase ${f.phase}: others ${HALF}/s${f.phase === 'hot' ? ` + hot project ${HALF}/s (partition ${hotPartition ?? '?'})` : ''} for ${SECONDS} s, ${driven.events} accepted${Object.keys(f.notAccepted).length > 0 ? `, not accepted ${JSON.stringify(f.notAccepted)}` : ''}; drained ${(drainedAfter / 1000).toFixed(1)} s after the last send (${f.load})`,
  );
  log(
    `  201 -> tile change on Kafka, ms p50 / p99: other projects ${fmt(f.others)} (${f.others.length} changes)${f.phase === 'hot' ? `; hot project ${fmt(f.hot)} (${f.hot.length})` : ''}`,
  );
  log(
    `  event on Kafka -> tile change on Kafka (record create times), ms p50 / p99: other projects ${fmt(f.othersServer)}${f.phase === 'hot' ? `; hot project ${fmt(f.hotServer)}` : ''}`,
  );
  const instances = [...new Set(samples.flatMap(([, m]) => [...m.keys()]))].sort();
  log(
    `  lag per instance (messages behind; ${samples.length} samples over ${((samples[samples.length - 1]?.[0] ?? 0) / 1000).toFixed(0)} s, one a second or as fast as a reading goes; max per third of the sending window):`,
  );
  log(
    `    ${'instance'.padEnd(16)}${'first'.padStart(7)}${'last'.padStart(7)}${'max'.padStart(7)}${'max 1st/2nd/3rd third'.padStart(24)}${'after drain'.padStart(13)}`,
  );
  const third = sendEnded / 3;
  for (const instance of instances) {
    const series = samples.filter(([, m]) => m.has(instance)).map(([t, m]) => [t, m.get(instance)!] as const);
    const sending = series.filter(([t]) => t <= sendEnded);
    const maxIn = (from: number, to: number) => Math.max(0, ...sending.filter(([t]) => t > from && t <= to).map(([, v]) => v));
    const thirds = [maxIn(-1, third), maxIn(third, 2 * third), maxIn(2 * third, sendEnded)];
    log(
      `    ${instance.padEnd(16)}${String(series[0]?.[1] ?? '-').padStart(7)}${String(sending[sending.length - 1]?.[1] ?? '-').padStart(7)}${String(Math.max(0, ...series.map(([, v]) => v))).padStart(7)}${thirds.join(' / ').padStart(24)}${String(series[series.length - 1]?.[1] ?? '-').padStart(13)}`,
    );
  }
  log(
    `  CPU cores per instance over the phase: ${Object.entries(f.cores)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ')}`,
  );
}

function compareTiles(scaled: RunResult, single: RunResult): void {
  log(`\n=== final tile states: ${scaled.name} against ${single.name}`);
  const sameEvents = scaled.sent.length === single.sent.length && scaled.sent.every((n, i) => n === single.sent[i]);
  log(
    `  event sequence per project: ${sameEvents ? 'identical in both runs' : 'DIFFERS (the comparison below is not like for like)'} (${scaled.sent.reduce((a, b) => a + b, 0)} events); ${scaled.refused.size} not accepted by ${scaled.name} (left out of ${single.name}), ${single.refused.size} not accepted by ${single.name}${single.refused.size > 0 ? ' (NOT like for like: those are in the scaled run only)' : ''}`,
  );
  const windows = scaled.windowsComparable && single.windowsComparable;
  const byKind = new Map<string, { equal: number; total: number; differing: string[] }>();
  for (const [key, a] of scaled.tiles) {
    const index = Number(key.slice(key.lastIndexOf(' ') + 1));
    const kind = KINDS[index % 4]!;
    if (kind === 'window' && !windows) continue;
    const b = single.tiles.get(key);
    const entry = byKind.get(kind) ?? { equal: 0, total: 0, differing: [] };
    entry.total++;
    if (b !== undefined && a.status === b.status && a.value === b.value) entry.equal++;
    else entry.differing.push(`${key}: ${a.status} ${a.value} vs ${b?.status} ${b?.value}`);
    byKind.set(kind, entry);
  }
  for (const [kind, e] of byKind)
    log(
      `  ${kind.padEnd(11)} ${e.equal} / ${e.total} tiles equal (status and value)${e.differing.length > 0 ? `; differing: ${e.differing.slice(0, 5).join('; ')}` : ''}`,
    );
  if (!windows) log(`  window tiles not compared: a run read its tiles 5 minutes or more after its first event's stamp (events had left the window)`);
  const statuses = (r: RunResult) => [...r.tiles.values()].reduce<Record<string, number>>((acc, t) => ({ ...acc, [t.status]: (acc[t.status] ?? 0) + 1 }), {});
  log(`  statuses: ${scaled.name} ${JSON.stringify(statuses(scaled))}, ${single.name} ${JSON.stringify(statuses(single))}`);
}

async function main(): Promise<void> {
  const instances = Object.fromEntries(args.instances.split(',').map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])])) as Partial<
    Record<Service, number>
  >;
  log(
    `bench:scale-out: ${args.projects} projects, others ${HALF} events/s, hot project ${HALF} events/s in phase hot; ${SECONDS} s per phase, warm-up ${args.warmup} s (${load()})`,
  );
  const scaled = await runOnce('scaled', { partitions: Number(args.partitions), instances });
  // The single run leaves out what the scaled run did not accept (a 503 under load), so both hold the same events.
  const single = args['no-single'] ? undefined : await runOnce('single', { instances: {}, skip: scaled.refused });
  log('\n=== summary');
  for (const r of [scaled, single]) {
    if (r === undefined) continue;
    // Phases of one kind pooled (an even phase before and after the hot one evens out the machine's drift).
    const pooled = (kind: string) => r.phases.filter((p) => p.phase === kind);
    for (const [what, pick] of [
      ['201 (client clock)', (p: PhaseFigures) => p.others],
      ['event on Kafka (server clocks)', (p: PhaseFigures) => p.othersServer],
    ] as const) {
      const [even, hot] = [pooled('even'), pooled('hot')].map((ps) => ({ values: ps.flatMap(pick), loads: ps.map((p) => p.load).join('; ') }));
      if (even!.values.length === 0 || hot!.values.length === 0) continue;
      const ratio = percentile(hot!.values, 99) / percentile(even!.values, 99);
      log(
        `  ${r.name}: other projects' ${what} -> tile change p50 / p99 ${fmt(even!.values)} ms without the hot project (${even!.loads}), ${fmt(hot!.values)} ms with it (${hot!.loads}): p99 ratio ${ratio.toFixed(2)} (target <= 2)`,
      );
    }
  }
  if (single) compareTiles(scaled, single);
}

await main();
