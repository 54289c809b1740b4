// The editor's form fields <-> a tile rule. The form is a convenience over the JSON:
// both are checked by the same validator, compiled from contracts' tile-rule schema.
import { EVALUATION_KINDS, THRESHOLD_DIRECTIONS, TILE_LEVELS, WINDOW_AGGREGATES, tileRuleSchema } from '@pulseboard/contracts/tile-rule';
import validateRule from './generated/tile-rule-validator.js';

export { EVALUATION_KINDS, THRESHOLD_DIRECTIONS, TILE_LEVELS, WINDOW_AGGREGATES, EVENT_TYPES };
export const RULE_SCHEMA_ID = tileRuleSchema.$id;
/** The event types a filter may name, read from the schema itself. */
const EVENT_TYPES: readonly string[] = tileRuleSchema.properties.filter.properties.type.anyOf[0].enum;

export interface RuleForm {
  kind: (typeof EVALUATION_KINDS)[number];
  type: string;
  names: string;
  attribute: string;
  warning: string;
  critical: string;
  direction: string;
  aggregate: string;
  window: string;
  map: string;
  stale_after: string;
  /** An attribute path (or source, channel, name): one state per value there. Empty: not grouped. */
  group_by: string;
}

export const EMPTY_FORM: RuleForm = {
  kind: 'threshold',
  type: 'metric',
  names: '',
  attribute: 'value',
  warning: '',
  critical: '',
  direction: 'above',
  aggregate: 'count',
  window: '5m',
  map: '',
  stale_after: '',
  group_by: '',
};

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const num = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function formToRule(f: RuleForm): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (f.type) filter.type = f.type;
  const names = list(f.names);
  if (names.length === 1) filter.name = names[0];
  else if (names.length > 1) filter.name = names;
  let evaluation: Record<string, unknown>;
  const levels = () => {
    const out: Record<string, unknown> = {};
    if (num(f.warning) !== undefined) out.warning = num(f.warning);
    if (num(f.critical) !== undefined) out.critical = num(f.critical);
    if (f.direction === 'below') out.direction = 'below';
    return out;
  };
  if (f.kind === 'threshold') evaluation = { kind: 'threshold', attribute: f.attribute, ...levels() };
  else if (f.kind === 'window')
    evaluation = { kind: 'window', aggregate: f.aggregate, ...(f.aggregate === 'count' ? {} : { attribute: f.attribute }), window: f.window, ...levels() };
  else if (f.kind === 'up_down') evaluation = { kind: 'up_down', attribute: f.attribute };
  else {
    const map: Record<string, string> = {};
    for (const line of f.map.split('\n')) {
      const [name, status] = line.split('=').map((s) => s.trim());
      if (name) map[name] = status ?? '';
    }
    evaluation = { kind: 'status_map', map };
  }
  const rule: Record<string, unknown> = { filter, evaluation };
  if (f.stale_after.trim()) rule.stale_after = f.stale_after.trim();
  if (f.group_by.trim()) rule.group_by = f.group_by.trim();
  return rule;
}

export function ruleToForm(rule: any): RuleForm {
  const e = rule?.evaluation ?? {};
  const names = rule?.filter?.name;
  return {
    ...EMPTY_FORM,
    kind: EVALUATION_KINDS.includes(e.kind) ? e.kind : 'threshold',
    type: typeof rule?.filter?.type === 'string' ? rule.filter.type : '',
    names: Array.isArray(names) ? names.join(', ') : (names ?? ''),
    attribute: e.attribute ?? 'value',
    warning: e.warning === undefined ? '' : String(e.warning),
    critical: e.critical === undefined ? '' : String(e.critical),
    direction: e.direction ?? 'above',
    aggregate: e.aggregate ?? 'count',
    window: e.window ?? '5m',
    map: e.map
      ? Object.entries(e.map)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join('\n')
      : '',
    stale_after: rule?.stale_after ?? '',
    group_by: typeof rule?.group_by === 'string' ? rule.group_by : '',
  };
}

/** The form can say what this rule says (else the editor opens in JSON mode). */
export function formCanHold(rule: any): boolean {
  try {
    return JSON.stringify(formToRule(ruleToForm(rule))) === JSON.stringify(rule);
  } catch {
    return false;
  }
}

/** Which branch of the schema's evaluation anyOf is each kind's (read from the schema). */
const BRANCH = new Map<string, number>(tileRuleSchema.properties.evaluation.anyOf.map((branch, i) => [branch.properties.kind.const, i]));

/** Problems by the published schema, as "where: what" lines; empty when valid. */
export function ruleProblems(rule: unknown): string[] {
  if (validateRule(rule)) return [];
  const kind = (rule as { evaluation?: { kind?: unknown } })?.evaluation?.kind;
  const branch = typeof kind === 'string' ? BRANCH.get(kind) : undefined;
  const seen = new Set<string>();
  for (const e of validateRule.errors ?? []) {
    // The evaluation anyOf reports every kind's branch: only the chosen kind's own says something useful.
    const inBranch = /^#\/properties\/evaluation\/anyOf\/(\d+)/.exec(e.schemaPath);
    if (inBranch && branch !== undefined && Number(inBranch[1]) !== branch) continue;
    if (e.keyword === 'anyOf' && inBranch === null && e.instancePath === '/evaluation' && branch !== undefined) continue;
    if (e.keyword === 'if') continue;
    const where = e.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'rule';
    if (/anyOf\/\d+\/anyOf\/\d+\/required$/.test(e.schemaPath)) {
      seen.add(`${where}: needs a warning or a critical level`);
      continue;
    }
    if (e.keyword === 'anyOf' && inBranch) continue;
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : e.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
          : '';
    seen.add(`${where}: ${e.message}${extra}`);
  }
  return [...seen];
}
