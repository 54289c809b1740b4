import type { TileRule, ValidationDetails } from '@pulseboard/contracts';
import { compileEvaluator, type TileEvaluator } from './evaluator.ts';
import type { RuleEvent } from './event.ts';
import { compileFilter, type EventPredicate } from './filter.ts';
import { compileGrouping, type GroupRecord, type GroupStep, type Grouping } from './grouping.ts';
import type { EvaluationStep, TileState, TileStateChange } from './tile-state.ts';

/** A tile as the rules need it: its id and its rule as stored (jsonb). */
export interface TileDefinition {
  id: number;
  rule: unknown;
}

export interface CompiledTile {
  readonly id: number;
  readonly rule: TileRule;
  /** Equal for two rules whose filter and evaluation are equal: a rule change that keeps it keeps the tile's data. */
  readonly dataKey: string;
  readonly matches: EventPredicate;
  /** Each group's state is the evaluator's; null for a tile without `group_by`. */
  readonly evaluator: TileEvaluator;
  readonly grouping: Grouping | null;
}

export interface ProjectRules {
  /** Every tile whose rule compiled, by id. */
  readonly tiles: ReadonlyMap<number, CompiledTile>;
  /** Tiles whose stored rule is not a valid rule (stored before the schema, say): they never match. */
  readonly invalid: readonly { id: number; details: ValidationDetails }[];
  /** The tiles the event matches, in the order the definitions were given. */
  matching(event: RuleEvent): CompiledTile[];
}

/** JSON with keys sorted, so equal rules give equal text whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function compileTile(id: number, rule: TileRule): CompiledTile {
  const evaluator = compileEvaluator(rule);
  const { group_by: groupBy } = rule;
  return {
    id,
    rule,
    dataKey: canonicalJson({ filter: rule.filter ?? {}, evaluation: rule.evaluation, ...(groupBy === undefined ? {} : { group_by: groupBy }) }),
    matches: compileFilter(rule.filter),
    evaluator,
    grouping: groupBy === undefined ? null : compileGrouping({ ...rule, group_by: groupBy }, evaluator),
  };
}

/** Tiles by a string field's value, and those that accept any value of it. */
interface Bucket<T> {
  byValue: Map<string, T[]>;
  any: T[];
}

const newBucket = <T>(): Bucket<T> => ({ byValue: new Map(), any: [] });

function place<T>(bucket: Bucket<T>, allowed: string | readonly string[] | undefined, item: T): void {
  if (allowed === undefined) {
    bucket.any.push(item);
    return;
  }
  for (const value of new Set(typeof allowed === 'string' ? [allowed] : allowed)) {
    const list = bucket.byValue.get(value) ?? [];
    list.push(item);
    bucket.byValue.set(value, list);
  }
}

interface Indexed {
  tile: CompiledTile;
  order: number;
}

/**
 * Compiles a project's tiles once (rules are never parsed per event) and
 * indexes them by the filter's `type`, then `name`, so an event is tested
 * only against tiles that name its type (or no type) and its name (or no
 * name). `validate` is `tileRuleValidator` of contracts.
 */
export function compileProjectRules(definitions: readonly TileDefinition[], validate: (rule: unknown) => ValidationDetails | null): ProjectRules {
  const tiles = new Map<number, CompiledTile>();
  const invalid: { id: number; details: ValidationDetails }[] = [];
  const byType = new Map<string, Bucket<Indexed>>();
  const anyType = newBucket<Indexed>();
  const typeBucket = (type: string | undefined) => {
    if (type === undefined) return anyType;
    const bucket = byType.get(type) ?? newBucket<Indexed>();
    byType.set(type, bucket);
    return bucket;
  };
  definitions.forEach((definition, order) => {
    const details = validate(definition.rule);
    if (details !== null) {
      invalid.push({ id: definition.id, details });
      return;
    }
    const tile = compileTile(definition.id, definition.rule as TileRule);
    tiles.set(tile.id, tile);
    const { type, name } = tile.rule.filter ?? {};
    const types = type === undefined ? [undefined] : [...new Set(typeof type === 'string' ? [type] : type)];
    for (const eventType of types) place(typeBucket(eventType), name, { tile, order });
  });

  const candidatesIn = (bucket: Bucket<Indexed> | undefined, name: string) =>
    bucket === undefined ? [] : [...(bucket.byValue.get(name) ?? []), ...bucket.any];
  return {
    tiles,
    invalid,
    matching(event) {
      const candidates = [...candidatesIn(byType.get(event.type), event.name), ...candidatesIn(anyType, event.name)];
      if (candidates.length > 1) candidates.sort((a, b) => a.order - b.order);
      const matched: CompiledTile[] = [];
      for (const { tile } of candidates) if (tile.matches(event)) matched.push(tile);
      return matched;
    },
  };
}

/**
 * A tile's state when its rule changes from `previous` to `next`: first what
 * the old rule had due by `now`, then the new rule takes over, keeping the
 * data when the filter and evaluation are unchanged (only damping or
 * staleness changed) and starting again from unknown otherwise.
 */
export function adoptRule(previous: CompiledTile | undefined, next: CompiledTile, state: TileState, now: number): EvaluationStep {
  const settled = previous === undefined ? { state, changes: [] } : previous.evaluator.advance(state, now);
  const adopted = next.evaluator.adopt(settled.state, now, previous !== undefined && previous.dataKey === next.dataKey);
  return { ...adopted, changes: [...settled.changes, ...adopted.changes] };
}

/** A grouped tile's rule change: the tile's own step and every group's. */
export interface GroupedAdoption {
  tile: EvaluationStep;
  groups: GroupStep[];
}

/**
 * `adoptRule` for a tile whose old or new rule groups. With the same filter,
 * evaluation and `group_by` each group keeps its data (what the old rule had
 * due first, then the new damping and staleness); otherwise every group goes
 * and the tile is unknown again (`cause: rule`).
 */
export function adoptGroupedRule(
  previous: CompiledTile | undefined,
  next: CompiledTile,
  state: TileState,
  groups: ReadonlyMap<string, GroupRecord>,
  now: number,
): GroupedAdoption {
  const steps: GroupStep[] = [];
  if (previous?.grouping && next.grouping && previous.dataKey === next.dataKey) {
    let tile: EvaluationStep = { state, changes: [], wakeAt: null };
    const take = (step: { tile: EvaluationStep; group: GroupStep | null }) => {
      tile = { state: step.tile.state, changes: [...tile.changes, ...step.tile.changes], wakeAt: null };
      return step.group;
    };
    for (const [key, record] of groups) {
      const advanced = take(previous.grouping.advance(tile.state, key, record, now));
      if (advanced?.record == null) {
        if (advanced !== null) steps.push(advanced);
        continue;
      }
      const adopted = take(next.grouping.adopt(tile.state, key, advanced.record, now));
      steps.push({ ...adopted!, changes: [...advanced.changes, ...adopted!.changes] });
    }
    return { tile, groups: steps };
  }
  for (const key of groups.keys()) steps.push({ key, record: null, changes: [], wakeAt: null });
  const settled = previous !== undefined && previous.grouping === null ? previous.evaluator.advance(state, now) : { state, changes: [] };
  const fresh = next.grouping?.initialState() ?? next.evaluator.initialState();
  const from = settled.state;
  const t = Math.max(now, from.evaluation.at ?? now);
  const evaluation = { ...fresh.evaluation };
  if (from.status === fresh.status && from.value === fresh.value) {
    return { tile: { state: { ...from, evaluation }, changes: settled.changes, wakeAt: null }, groups: steps };
  }
  const version = from.version + 1;
  const change: TileStateChange = {
    cause: 'rule',
    status: fresh.status,
    previous_status: from.status,
    value: fresh.value,
    previous_value: from.value,
    version,
    event_id: null,
    changed_at: t,
  };
  const tile = { status: fresh.status, value: fresh.value, version, last_event_id: null, changed_at: t, evaluation };
  return { tile: { state: tile, changes: [...settled.changes, change], wakeAt: null }, groups: steps };
}
