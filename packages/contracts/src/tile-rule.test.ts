import { describe, expect, it } from 'vitest';
import { createAjv } from './validation.ts';
import { durationMs, tileRuleProblems, tileRuleValidator } from './tile-rule-checks.ts';
import { tileChangeSchema } from './tile-change.schema.ts';
import { tileRuleSchema, type TileRule } from './tile-rule.schema.ts';

const validate = tileRuleValidator(createAjv());
const threshold = { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } as const;
const withFilter = (filter: unknown) => validate({ filter, evaluation: threshold });
const withEvaluation = (evaluation: unknown) => validate({ evaluation });

describe('tile rule schema: valid rules (CONTRACT Tiles)', () => {
  it("accepts the contract's example and each evaluation kind", () => {
    const example: TileRule = {
      filter: { type: 'metric', name: ['cpu_usage'], channel: 'eu', labels: ['prod'], attributes: { host: 'web-1' } },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 },
      pending: '1m',
      recovery: '2m',
      stale_after: '10m',
    };
    expect(validate(example)).toBeNull();
    expect(withEvaluation({ kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } })).toBeNull();
    expect(withEvaluation({ kind: 'threshold', attribute: 'response_time_ms', critical: 2000 })).toBeNull();
    expect(withEvaluation({ kind: 'threshold', attribute: 'free_gb', warning: 10, critical: 2, direction: 'below' })).toBeNull();
    expect(withEvaluation({ kind: 'window', aggregate: 'count', window: '5m', warning: 5, critical: 20 })).toBeNull();
    for (const aggregate of ['sum', 'avg', 'min', 'max']) {
      expect(withEvaluation({ kind: 'window', aggregate, attribute: 'duration_seconds', window: '1h', warning: 1 })).toBeNull();
    }
    expect(withEvaluation({ kind: 'up_down', attribute: 'is_up' })).toBeNull();
  });

  it('accepts an absent or empty filter (every event of the project) and strings or lists for each string field', () => {
    expect(validate({ evaluation: threshold })).toBeNull();
    expect(withFilter({})).toBeNull();
    expect(withFilter({ type: 'uptime', name: 'http_check', severity: 'critical', source: 'probe-1', channel: 'eu' })).toBeNull();
    expect(
      withFilter({ type: ['uptime', 'metric'], name: ['a', 'b'], severity: ['warn', 'error'], source: ['x'], channel: ['eu', 'us'], labels: [] }),
    ).toBeNull();
  });

  it('accepts an equality value or each operator on an attribute path', () => {
    const attributes = {
      host: 'web-1',
      'http.status_code': 500,
      is_up: false,
      region: null,
      a: { eq: 'x' },
      b: { ne: null },
      c: { in: ['eu', 'us', 3, true, null] },
      d: { gt: 1, lt: 10 },
      e: { gte: 0.5, lte: 99.5 },
      f: { exists: true },
      g: { contains: 'timeout' },
      h: { contains: 404 },
    };
    expect(withFilter({ attributes })).toBeNull();
  });

  it('takes every duration unit up to its maximum', () => {
    for (const duration of ['30s', '5m', '2h', '1d', '86400s', '1440m', '24h']) {
      expect(validate({ evaluation: { kind: 'window', aggregate: 'count', window: duration, warning: 1 }, pending: duration, recovery: duration })).toBeNull();
    }
    expect(validate({ evaluation: threshold, stale_after: '30d' })).toBeNull();
    expect(durationMs('30s')).toBe(30_000);
    expect(durationMs('2h')).toBe(7_200_000);
    expect(durationMs('1d')).toBe(86_400_000);
    expect(durationMs('5 m')).toBeNaN();
  });

  it('publishes its $id where the tile API refers to it', () => {
    expect(tileRuleSchema.$id).toBe('https://pulseboard.dev/schemas/tile-rule.json');
  });
});

describe('tile rule schema: details keyed by the rule path', () => {
  it('reports a missing, unknown or non-object rule and evaluation', () => {
    expect(validate('x')).toEqual({ rule: ['must be an object'] });
    expect(validate(null)).toEqual({ rule: ["can't be blank"] });
    expect(validate({})).toEqual({ 'rule.evaluation': ["can't be blank"] });
    expect(withEvaluation(null)).toEqual({ 'rule.evaluation': ["can't be blank"] });
    expect(withEvaluation([])).toEqual({ 'rule.evaluation': ['must be an object'] });
    expect(withEvaluation({})).toEqual({ 'rule.evaluation.kind': ["can't be blank"] });
    expect(withEvaluation({ kind: 'average' })).toEqual({ 'rule.evaluation.kind': ['is not included in the list'] });
    expect(withEvaluation({ kind: 7 })).toEqual({ 'rule.evaluation.kind': ['must be a string'] });
  });

  it('reports the fields of each kind against that kind only', () => {
    expect(withEvaluation({ kind: 'status_map' })).toEqual({ 'rule.evaluation.map': ["can't be blank"] });
    expect(withEvaluation({ kind: 'status_map', map: {} })).toEqual({ 'rule.evaluation.map': ["can't be empty"] });
    expect(withEvaluation({ kind: 'status_map', map: { deploy_failed: 'red', deploy_finished: 'ok' } })).toEqual({
      'rule.evaluation.map.deploy_failed': ['is not included in the list'],
    });
    expect(withEvaluation({ kind: 'threshold' })).toEqual({
      'rule.evaluation.attribute': ["can't be blank"],
      'rule.evaluation': ['needs warning or critical'],
    });
    expect(withEvaluation({ kind: 'threshold', attribute: 'value', warning: '80', direction: 'up' })).toEqual({
      'rule.evaluation.warning': ['must be a number'],
      'rule.evaluation.direction': ['is not included in the list'],
    });
    expect(withEvaluation({ kind: 'window', warning: 1 })).toEqual({
      'rule.evaluation.aggregate': ["can't be blank"],
      'rule.evaluation.window': ["can't be blank"],
      'rule.evaluation.attribute': ["can't be blank"],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'median', attribute: 'v', window: '5m', critical: 1 })).toEqual({
      'rule.evaluation.aggregate': ['is not included in the list'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'avg', window: '5m', critical: 1 })).toEqual({ 'rule.evaluation.attribute': ["can't be blank"] });
    expect(withEvaluation({ kind: 'window', aggregate: 'count', attribute: 'v', window: '5m', critical: 1 })).toEqual({
      'rule.evaluation.attribute': ['must be blank'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'count', window: '5m' })).toEqual({ 'rule.evaluation': ['needs warning or critical'] });
    expect(withEvaluation({ kind: 'up_down' })).toEqual({ 'rule.evaluation.attribute': ["can't be blank"] });
    expect(withEvaluation({ kind: 'up_down', attribute: '' })).toEqual({ 'rule.evaluation.attribute': ["can't be blank"] });
    expect(withEvaluation({ kind: 'up_down', attribute: 'checks..last' })).toEqual({ 'rule.evaluation.attribute': ['is not a valid attribute path'] });
  });

  it('calls every unknown field a typo, at any depth', () => {
    expect(validate({ evaluation: threshold, stale: '5m' })).toEqual({ 'rule.stale': ['is not a known field'] });
    expect(withFilter({ names: 'cpu_usage' })).toEqual({ 'rule.filter.names': ['is not a known field'] });
    expect(withEvaluation({ ...threshold, treshold: 3 })).toEqual({ 'rule.evaluation.treshold': ['is not a known field'] });
    expect(withEvaluation({ kind: 'up_down', attribute: 'is_up', warning: 1 })).toEqual({ 'rule.evaluation.warning': ['is not a known field'] });
    expect(withFilter({ attributes: { status_code: { gt: 499, greater: 1 } } })).toEqual({
      'rule.filter.attributes.status_code.greater': ['is not a known field'],
    });
  });

  it('reports bad filter values at their own path', () => {
    expect(withFilter('metric')).toEqual({ 'rule.filter': ['must be an object'] });
    expect(withFilter({ type: 'metrics' })).toEqual({ 'rule.filter.type': ['is not included in the list'] });
    expect(withFilter({ type: ['metric', 'weather'] })).toEqual({ 'rule.filter.type[1]': ['is not included in the list'] });
    expect(withFilter({ severity: 'fatal' })).toEqual({ 'rule.filter.severity': ['is not included in the list'] });
    expect(withFilter({ name: 3 })).toEqual({ 'rule.filter.name': ['must be a string or an array of strings'] });
    expect(withFilter({ name: ['cpu_usage', 3] })).toEqual({ 'rule.filter.name[1]': ['must be a string'] });
    expect(withFilter({ name: '' })).toEqual({ 'rule.filter.name': ["can't be blank"] });
    expect(withFilter({ name: [] })).toEqual({ 'rule.filter.name': ["can't be empty"] });
    expect(withFilter({ channel: 'x'.repeat(201) })).toEqual({ 'rule.filter.channel': ['is too long (maximum is 200 characters)'] });
    expect(withFilter({ labels: 'prod' })).toEqual({ 'rule.filter.labels': ['must be an array of strings'] });
    expect(withFilter({ labels: ['prod', 2] })).toEqual({ 'rule.filter.labels[1]': ['must be a string'] });
    expect(withFilter({ attributes: [] })).toEqual({ 'rule.filter.attributes': ['must be an object'] });
    expect(withFilter({ attributes: { 'http..status': 1 } })).toEqual({ 'rule.filter.attributes.http..status': ['is not a valid attribute path'] });
  });

  it('reports each operator with a bad operand', () => {
    const attribute = (condition: unknown) => withFilter({ attributes: { status_code: condition } });
    const key = 'rule.filter.attributes.status_code';
    expect(attribute([500])).toEqual({ [key]: ['must be a string, a number, true or false, null, or an object of operators'] });
    expect(attribute({})).toEqual({ [key]: ["can't be empty"] });
    expect(attribute({ eq: [1] })).toEqual({ [`${key}.eq`]: ['must be a string, a number, true or false, or null'] });
    expect(attribute({ ne: { a: 1 } })).toEqual({ [`${key}.ne`]: ['must be a string, a number, true or false, or null'] });
    expect(attribute({ in: 500 })).toEqual({ [`${key}.in`]: ['must be an array'] });
    expect(attribute({ in: [] })).toEqual({ [`${key}.in`]: ["can't be empty"] });
    expect(attribute({ in: [500, [501]] })).toEqual({ [`${key}.in[1]`]: ['must be a string, a number, true or false, or null'] });
    for (const operator of ['gt', 'gte', 'lt', 'lte']) expect(attribute({ [operator]: '500' })).toEqual({ [`${key}.${operator}`]: ['must be a number'] });
    expect(attribute({ exists: 'yes' })).toEqual({ [`${key}.exists`]: ['must be true or false'] });
    expect(attribute({ contains: null })).toEqual({ [`${key}.contains`]: ['must be a string, a number, or true or false'] });
  });

  it('refuses malformed and over-long durations', () => {
    for (const duration of ['0s', '5', '5 m', '1w', '1.5h', '-1m', 'm', '05m', '']) {
      expect(validate({ evaluation: threshold, pending: duration })).toEqual({ 'rule.pending': ['is not a valid duration'] });
    }
    expect(validate({ evaluation: threshold, recovery: 300 })).toEqual({ 'rule.recovery': ['must be a string'] });
    expect(validate({ evaluation: threshold, pending: '25h', recovery: '2d', stale_after: '31d' })).toEqual({
      'rule.pending': ['is too long (maximum is 1d)'],
      'rule.recovery': ['is too long (maximum is 1d)'],
      'rule.stale_after': ['is too long (maximum is 30d)'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'count', window: '86401s', warning: 1 })).toEqual({
      'rule.evaluation.window': ['is too long (maximum is 1d)'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'count', window: '99999999999999999999999d', warning: 1 })).toEqual({
      'rule.evaluation.window': ['is too long (maximum is 1d)'],
    });
  });

  it('wants critical beyond warning along the direction', () => {
    expect(withEvaluation({ ...threshold, warning: 95, critical: 80 })).toEqual({
      'rule.evaluation.critical': ['must be greater than warning (95) when direction is above'],
    });
    expect(withEvaluation({ ...threshold, warning: 90, critical: 90 })).toEqual({
      'rule.evaluation.critical': ['must be greater than warning (90) when direction is above'],
    });
    expect(withEvaluation({ ...threshold, direction: 'below' })).toEqual({
      'rule.evaluation.critical': ['must be less than warning (80) when direction is below'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'min', attribute: 'free_gb', window: '5m', warning: 2, critical: 10, direction: 'below' })).toEqual({
      'rule.evaluation.critical': ['must be less than warning (2) when direction is below'],
    });
    expect(withEvaluation({ kind: 'window', aggregate: 'min', attribute: 'free_gb', window: '5m', warning: 10, critical: 2, direction: 'below' })).toBeNull();
  });

  it('gives every problem at once, schema and cross-field alike, under the prefix asked for', () => {
    expect(validate({ filter: { type: 'metrics' }, evaluation: { ...threshold, critical: 1 }, stale_after: '90d' }, 'tiles[2].rule')).toEqual({
      'tiles[2].rule.filter.type': ['is not included in the list'],
      'tiles[2].rule.evaluation.critical': ['must be greater than warning (80) when direction is above'],
      'tiles[2].rule.stale_after': ['is too long (maximum is 30d)'],
    });
    expect(tileRuleProblems({ evaluation: threshold })).toBeNull();
    expect(tileRuleProblems('not a rule')).toBeNull();
  });
});

describe('tile-change message schema', () => {
  const check = createAjv().compile(tileChangeSchema);
  const change = {
    position: 41,
    tile_id: 7,
    project_key: 'web',
    tile_name: 'API uptime',
    status: 'critical',
    previous_status: 'ok',
    value: false,
    previous_value: true,
    version: 3,
    event_id: 1201,
    changed_at: '2026-01-02T03:04:05.000Z',
    cause: 'event',
  };

  it('accepts each value type and a time-driven change without an event', () => {
    for (const value of [42.5, true, 'deploy_failed', null]) expect(check({ ...change, value })).toBe(true);
    expect(check({ ...change, event_id: null, cause: 'time', status: 'stale' })).toBe(true);
  });

  it('refuses an unknown status, cause or field, and a value of another type', () => {
    expect(check({ ...change, status: 'red' })).toBe(false);
    expect(check({ ...change, cause: 'manual' })).toBe(false);
    expect(check({ ...change, extra: 1 })).toBe(false);
    expect(check({ ...change, value: { a: 1 } })).toBe(false);
    expect(check({ ...change, version: 0 })).toBe(false);
  });
});
