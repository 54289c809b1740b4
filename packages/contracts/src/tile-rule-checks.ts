import type { Ajv } from 'ajv';
import { toPathValidationDetails } from './path-validation-details.ts';
import { DURATION_PATTERN } from './rule-patterns.ts';
import { tileRuleSchema } from './tile-rule.schema.ts';
import type { ValidationDetails } from './validation.ts';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = new RegExp(DURATION_PATTERN);

/** Milliseconds of a duration (`30s`, `5m`, `2h`, `1d`); NaN for text that is not one. */
export function durationMs(text: string): number {
  if (!DURATION.test(text)) return Number.NaN;
  return Number(text.slice(0, -1)) * (UNIT_MS[text.at(-1) ?? ''] ?? Number.NaN);
}

/**
 * The longest value of each duration field. A window's state is kept per tile
 * and bounded, so a day is the longest that stays precise enough (see the rule
 * engine's docs/rules.md); damping longer than a day hides the tile's data;
 * `stale_after` reaches the default event retention.
 */
export const DURATION_MAXIMA = { window: '1d', pending: '1d', recovery: '1d', stale_after: '30d', group_retire_after: '30d' } as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the rule's JSON Schema cannot say, checked on whatever parts of `rule`
 * are well-formed (so it adds to the schema's details rather than waiting for
 * them): durations no longer than `DURATION_MAXIMA`, and `critical` beyond
 * `warning` along `direction` (a critical level the warning level already
 * covers could never show). Keys as the schema's: `rule.evaluation.critical`.
 */
export function tileRuleProblems(rule: unknown, prefix = 'rule'): ValidationDetails | null {
  const details: ValidationDetails = {};
  const add = (path: string, message: string) => (details[`${prefix}.${path}`] ??= []).push(message);
  const checkDuration = (path: string, value: unknown, field: keyof typeof DURATION_MAXIMA) => {
    const maximum = DURATION_MAXIMA[field];
    if (typeof value === 'string' && durationMs(value) > durationMs(maximum)) add(path, `is too long (maximum is ${maximum})`);
  };
  if (!isObject(rule)) return null;
  for (const field of ['pending', 'recovery', 'stale_after', 'group_retire_after'] as const) checkDuration(field, rule[field], field);
  if (rule.group_retire_after !== undefined && rule.group_by === undefined) add('group_retire_after', 'is allowed only with group_by');
  const evaluation = rule.evaluation;
  if (isObject(evaluation) && (evaluation.kind === 'threshold' || evaluation.kind === 'window')) {
    if (evaluation.kind === 'window') checkDuration('evaluation.window', evaluation.window, 'window');
    const { warning, critical, direction = 'above' } = evaluation;
    if (typeof warning === 'number' && typeof critical === 'number') {
      if (direction === 'above' && !(critical > warning)) add('evaluation.critical', `must be greater than warning (${warning}) when direction is above`);
      if (direction === 'below' && !(critical < warning)) add('evaluation.critical', `must be less than warning (${warning}) when direction is below`);
    }
  }
  return Object.keys(details).length === 0 ? null : details;
}

const ARRAYS_OF_STRINGS = new Set(['filter.labels']);

/**
 * Validates a tile rule against its schema and `tileRuleProblems`: `details`
 * keyed by the rule path (`rule.evaluation.kind`), or null when the rule is good.
 */
export function tileRuleValidator(ajv: Ajv): (rule: unknown, prefix?: string) => ValidationDetails | null {
  const validate = ajv.getSchema(tileRuleSchema.$id) ?? ajv.compile(tileRuleSchema);
  return (rule, prefix = 'rule') => {
    const details = validate(rule) ? {} : toPathValidationDetails(validate.errors ?? [], rule, { prefix, arrayOfStrings: ARRAYS_OF_STRINGS });
    for (const [key, messages] of Object.entries(tileRuleProblems(rule, prefix) ?? {})) (details[key] ??= []).push(...messages);
    return Object.keys(details).length === 0 ? null : details;
  };
}
