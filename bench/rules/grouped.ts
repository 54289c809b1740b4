/**
 * bench:rules-grouped: what one tile grouped over many hosts costs the rule
 * engine's evaluator per event, against as many single tiles, one filtered to
 * each host, over the same events. In process, no infrastructure: the
 * engine's per-event path from @pulseboard/rules (the project's compiled
 * rules find the matching tiles; a grouped tile's event goes to its group's
 * record through compileGrouping, a single tile's to its own state), each
 * tile's and group's state kept in a Map as the engine keeps them between
 * batches. The SQL the engine writes per event is the same in both (one
 * tile-group row against one tile row) and is not measured here.
 *
 *   pnpm bench:rules-grouped [--hosts 1000] [--events 20000] [--repetitions 3]
 *
 * Each repetition runs (a) grouped then (b) single over the same stream, so
 * the spread between repetitions is visible. Per arm it prints CPU µs per
 * event (process.cpuUsage, user + system) for the whole path (matching
 * included: a filter on an attribute is not indexed, so each event is tested
 * against every single tile) and for the evaluation alone (each event handed
 * straight to its tile or group), state changes emitted, and both ratios
 * grouped/single. The events are metrics `cpu` with
 * `attributes.host` (hosts taking turns) and `attributes.cpu`, a threshold
 * rule (warning 80, critical 90) with values that move each host across its
 * levels now and then; one event a millisecond.
 */
import { parseArgs } from 'node:util';
import { createAjv, tileRuleValidator, type TileRule } from '@pulseboard/contracts';
import { compileProjectRules, type GroupRecord, type ProjectRules, type RuleEvent, type TileState } from '@pulseboard/rules';

const { values: options } = parseArgs({
  options: {
    hosts: { type: 'string', default: '1000' },
    events: { type: 'string', default: '20000' },
    repetitions: { type: 'string', default: '3' },
  },
});
const HOSTS = Number(options.hosts);
const EVENTS = Number(options.events);
const REPETITIONS = Number(options.repetitions);
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

const hostName = (i: number) => `host-${String(i).padStart(4, '0')}`;
const evaluation = { kind: 'threshold', attribute: 'cpu', warning: 80, critical: 90 } as const;
const filter = { type: 'metric', name: 'cpu' } as const;

function makeEvents(): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const round = Math.floor(i / HOSTS);
    // Each host's value walks 0..99 over its rounds (offset per host), so it crosses warning and critical now and then.
    const cpu = (round * 7 + (i % HOSTS) * 13) % 100;
    events.push({
      id: i + 1,
      type: 'metric',
      name: 'cpu',
      time: T0 + i,
      severity: undefined,
      source: 'bench',
      channel: undefined,
      labels: [],
      attributes: { host: hostName(i % HOSTS), cpu },
    });
  }
  return events;
}

const validate = tileRuleValidator(createAjv());

function compile(rules: TileRule[]): ProjectRules {
  const compiled = compileProjectRules(
    rules.map((rule, i) => ({ id: i + 1, rule })),
    (rule) => validate(rule),
  );
  if (compiled.invalid.length > 0) throw new Error(`invalid rules: ${JSON.stringify(compiled.invalid[0])}`);
  return compiled;
}

const groupedRules = () => compile([{ filter, group_by: 'host', evaluation }]);
const singleRules = () => compile(Array.from({ length: HOSTS }, (_, i) => ({ filter: { ...filter, attributes: { host: hostName(i) } }, evaluation })));

/** The grouped tile's path: match, read the key, apply to the group's record, keep the records and the tile's state. */
function runGrouped(rules: ProjectRules, events: readonly RuleEvent[]): number {
  const tile = [...rules.tiles.values()][0]!;
  const grouping = tile.grouping!;
  let state = grouping.initialState();
  const records = new Map<string, GroupRecord>();
  let changes = 0;
  for (const event of events) {
    for (const matched of rules.matching(event)) {
      if (matched !== tile) continue;
      const key = grouping.keyOf(event);
      const step = grouping.applyEvent(state, key, key === null ? undefined : records.get(key), records.size, HOSTS, event, event.time);
      state = step.tile.state;
      changes += step.tile.changes.length;
      if (step.group !== null) {
        changes += step.group.changes.length;
        if (step.group.record === null) records.delete(step.group.key);
        else records.set(step.group.key, step.group.record);
      }
    }
  }
  return changes;
}

/** The single tiles' path: match (one filter per host), apply to the matched tile's state, keep it. */
function runSingle(rules: ProjectRules, events: readonly RuleEvent[]): number {
  const states = new Map<number, TileState>();
  let changes = 0;
  for (const event of events) {
    for (const tile of rules.matching(event)) {
      const step = tile.evaluator.applyEvent(states.get(tile.id) ?? tile.evaluator.initialState(), event, event.time);
      states.set(tile.id, step.state);
      changes += step.changes.length;
    }
  }
  return changes;
}

/** The grouped tile's evaluation alone: every event is its tile's (no matching). */
function evaluateGrouped(rules: ProjectRules, events: readonly RuleEvent[]): number {
  const tile = [...rules.tiles.values()][0]!;
  const grouping = tile.grouping!;
  let state = grouping.initialState();
  const records = new Map<string, GroupRecord>();
  let changes = 0;
  for (const event of events) {
    const key = grouping.keyOf(event);
    const step = grouping.applyEvent(state, key, key === null ? undefined : records.get(key), records.size, HOSTS, event, event.time);
    state = step.tile.state;
    changes += step.tile.changes.length + (step.group?.changes.length ?? 0);
    if (step.group?.record) records.set(step.group.key, step.group.record);
  }
  return changes;
}

/** The single tiles' evaluation alone: each event's tile found by its host in a Map (no matching). */
function evaluateSingle(rules: ProjectRules, events: readonly RuleEvent[]): number {
  const byHost = new Map([...rules.tiles.values()].map((tile) => [tile.rule.filter?.attributes?.host, tile]));
  const states = new Map<number, TileState>();
  let changes = 0;
  for (const event of events) {
    const tile = byHost.get(event.attributes.host as string)!;
    const step = tile.evaluator.applyEvent(states.get(tile.id) ?? tile.evaluator.initialState(), event, event.time);
    states.set(tile.id, step.state);
    changes += step.changes.length;
  }
  return changes;
}

/** CPU µs per event of `work` over the stream (user + system). */
function cpuPerEvent(work: () => number): { us: number; result: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { us: (used.user + used.system) / EVENTS, result };
}

const fmt = (n: number) => n.toFixed(3);

function main(): void {
  console.log(
    `bench:rules-grouped hosts=${HOSTS} events=${EVENTS} repetitions=${REPETITIONS} rule=threshold(cpu, warning 80, critical 90) node=${process.version}`,
  );
  const events = makeEvents();
  const grouped = groupedRules();
  const single = singleRules();
  // Warm-up: both paths optimised before anything is measured.
  const warm = events.slice(0, Math.min(events.length, 5_000));
  runGrouped(grouped, warm);
  runSingle(single, warm);

  const ratios: number[] = [];
  const evalRatios: number[] = [];
  for (let rep = 1; rep <= REPETITIONS; rep++) {
    const a = cpuPerEvent(() => runGrouped(grouped, events));
    const aEval = cpuPerEvent(() => evaluateGrouped(grouped, events));
    const b = cpuPerEvent(() => runSingle(single, events));
    const bEval = cpuPerEvent(() => evaluateSingle(single, events));
    const ratio = a.us / b.us;
    const evalRatio = aEval.us / bEval.us;
    ratios.push(ratio);
    evalRatios.push(evalRatio);
    console.log(
      `rep ${rep}: (a) grouped ${fmt(a.us)} µs/event (evaluation alone ${fmt(aEval.us)}, changes ${a.result})` +
        ` | (b) ${HOSTS} single ${fmt(b.us)} µs/event (evaluation alone ${fmt(bEval.us)}, changes ${b.result})` +
        ` | grouped/single ${ratio.toFixed(3)}, evaluation alone ${evalRatio.toFixed(3)}`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const evalSorted = [...evalRatios].sort((x, y) => x - y);
  const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
  console.log(
    `grouped/single CPU per event: median ${median(sorted).toFixed(3)} (min ${sorted[0]!.toFixed(3)}, max ${sorted.at(-1)!.toFixed(3)});` +
      ` evaluation alone: median ${median(evalSorted).toFixed(3)} (min ${evalSorted[0]!.toFixed(3)}, max ${evalSorted.at(-1)!.toFixed(3)})`,
  );
}

main();
