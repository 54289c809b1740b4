import type { TileRuleFilter } from '@pulseboard/contracts';
import { compileAttributePath } from './attribute-path.ts';
import type { RuleEvent } from './event.ts';

export type EventPredicate = (event: RuleEvent) => boolean;
type ValueTest = (value: unknown) => boolean;
type Scalar = string | number | boolean | null;
type AttributeCondition = NonNullable<TileRuleFilter['attributes']>[string];
type Operators = Exclude<AttributeCondition, Scalar>;

/** The filter's string fields: a value or a list of allowed values. */
const FILTER_FIELDS = ['type', 'name', 'severity', 'source', 'channel'] as const;

/** A string field's test: equal to the one value, or one of the list. */
function allowedValues(allowed: string | readonly string[]): (value: string | undefined) => boolean {
  if (typeof allowed === 'string') return (value) => value === allowed;
  if (allowed.length === 1) {
    const only = allowed[0];
    return (value) => value === only;
  }
  const set = new Set(allowed);
  return (value) => value !== undefined && set.has(value);
}

// Comparisons never coerce: "500" is not 500, and a non-number is never greater or less.
const OPERATORS: { [K in keyof Operators]-?: (operand: NonNullable<Operators[K]>) => ValueTest } = {
  eq: (operand) => (value) => value === operand,
  // Like the others, judged on the value the path leads to: a missing attribute is not equal, so `ne` holds.
  ne: (operand) => (value) => value !== operand,
  in: (operands) => {
    const set = new Set<unknown>(operands);
    return (value) => set.has(value);
  },
  gt: (operand) => (value) => typeof value === 'number' && value > operand,
  gte: (operand) => (value) => typeof value === 'number' && value >= operand,
  lt: (operand) => (value) => typeof value === 'number' && value < operand,
  lte: (operand) => (value) => typeof value === 'number' && value <= operand,
  // null is a value that is present.
  exists: (present) => (value) => (value !== undefined) === present,
  // A substring of a string, or an element (===) of an array.
  contains: (operand) => (value) =>
    typeof value === 'string' ? typeof operand === 'string' && value.includes(operand) : Array.isArray(value) && value.includes(operand),
};

function compileCondition(condition: AttributeCondition): ValueTest {
  if (typeof condition !== 'object' || condition === null) return (value) => value === condition;
  const tests = Object.entries(condition).map(([operator, operand]) => (OPERATORS[operator as keyof Operators] as (operand: unknown) => ValueTest)(operand));
  return allOf(tests);
}

function allOf<T>(tests: readonly ((input: T) => boolean)[]): (input: T) => boolean {
  if (tests.length === 1) return tests[0] as (input: T) => boolean;
  return (input) => {
    for (const test of tests) if (!test(input)) return false;
    return true;
  };
}

/**
 * The filter as one predicate, built once per rule: every key given must hold;
 * an empty filter matches every event of the project.
 */
export function compileFilter(filter: TileRuleFilter = {}): EventPredicate {
  const tests: EventPredicate[] = [];
  for (const field of FILTER_FIELDS) {
    const allowed = filter[field];
    if (allowed === undefined) continue;
    const test = allowedValues(allowed);
    tests.push((event) => test(event[field]));
  }
  const labels = [...new Set(filter.labels ?? [])];
  if (labels.length > 0) tests.push((event) => labels.every((label) => event.labels.includes(label)));
  for (const [path, condition] of Object.entries(filter.attributes ?? {})) {
    const read = compileAttributePath(path);
    const test = compileCondition(condition);
    tests.push((event) => test(read(event.attributes)));
  }
  return tests.length === 0 ? () => true : allOf(tests);
}
