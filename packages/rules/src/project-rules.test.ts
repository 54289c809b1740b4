import { describe, expect, it } from 'vitest';
import { createAjv, EVENT_TYPES, tileRuleValidator, type TileRule, type TileRuleFilter } from '@pulseboard/contracts';
import { adoptRule, compileProjectRules, compileTile } from './project-rules.ts';
import { MINUTE, T0, ruleEvent, seededRandom } from './test-support.ts';

const validate = tileRuleValidator(createAjv());
const threshold = { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } as const;

describe('compiled project rules', () => {
  it('finds exactly the tiles whose filter matches, in definition order, whatever the index skips', () => {
    const random = seededRandom(11);
    const names = ['cpu_usage', 'memory_usage', 'http_check', 'crash', 'deploy_failed', 'anything'];
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
    const someOf = <T>(list: readonly T[]) => list.filter(() => random() < 0.4);
    const filters: TileRuleFilter[] = Array.from({ length: 300 }, () => {
      const filter: TileRuleFilter = {};
      const r = random();
      if (r < 0.4) filter.type = pick(EVENT_TYPES);
      else if (r < 0.6) filter.type = [pick(EVENT_TYPES), pick(EVENT_TYPES)];
      const n = random();
      if (n < 0.4) filter.name = pick(names);
      else if (n < 0.6) filter.name = someOf(names).length > 0 ? someOf(names).concat(pick(names)) : [pick(names)];
      if (random() < 0.2) filter.labels = ['prod'];
      if (random() < 0.2) filter.attributes = { value: { gte: 50 } };
      return filter;
    });
    const definitions = filters.map((filter, i) => ({ id: 1000 - i, rule: { filter, evaluation: threshold } }));
    const project = compileProjectRules(definitions, validate);
    expect(project.invalid).toEqual([]);
    const everyTile = definitions.map((definition) => compileTile(definition.id, definition.rule as TileRule));
    let matched = 0;
    for (let i = 0; i < 2000; i++) {
      const event = ruleEvent({
        type: pick(EVENT_TYPES),
        name: pick(names),
        labels: random() < 0.5 ? ['prod'] : [],
        attributes: { value: Math.floor(random() * 100) },
      });
      const expected = everyTile.filter((tile) => tile.matches(event)).map((tile) => tile.id);
      const found = project.matching(event).map((tile) => tile.id);
      expect(found).toEqual(expected);
      matched += found.length;
    }
    expect(matched).toBeGreaterThan(2000);
  });

  it('sets aside a stored rule that is not valid, with its details, and keeps the others', () => {
    const project = compileProjectRules(
      [
        { id: 1, rule: { filter: { type: 'metric' }, evaluation: threshold } },
        { id: 2, rule: { filter: { tpye: 'metric' }, evaluation: threshold } },
        { id: 3, rule: { evaluation: { kind: 'threshold', attribute: 'value' } } },
      ],
      validate,
    );
    expect([...project.tiles.keys()]).toEqual([1]);
    expect(project.invalid).toEqual([
      { id: 2, details: { 'rule.filter.tpye': ['is not a known field'] } },
      { id: 3, details: { 'rule.evaluation': ['needs warning or critical'] } },
    ]);
    expect(project.matching(ruleEvent()).map((tile) => tile.id)).toEqual([1]);
  });

  it('an empty filter matches every event of the project', () => {
    const project = compileProjectRules([{ id: 5, rule: { evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 100 } } }], validate);
    for (const type of EVENT_TYPES) expect(project.matching(ruleEvent({ type, name: 'x' })).map((tile) => tile.id)).toEqual([5]);
  });
});

describe('a rule change', () => {
  const cpu = (rule: Partial<TileRule>) => compileTile(7, { evaluation: threshold, ...rule });

  it('keeps the data when only damping or staleness changed, and re-settles under the new rule', () => {
    const before = cpu({ pending: '10m' });
    const { state } = before.evaluator.applyEvent(before.evaluator.initialState(), ruleEvent({ id: 3, attributes: { value: 99 } }), T0);
    expect(state.status).toBe('unknown');
    const step = adoptRule(before, cpu({ pending: '1m' }), state, T0 + 2 * MINUTE);
    expect(step.changes).toEqual([
      { cause: 'rule', status: 'critical', previous_status: 'unknown', value: 99, previous_value: 99, version: 2, event_id: null, changed_at: T0 + 2 * MINUTE },
    ]);
  });

  it('first applies what the old rule had due, then starts again from unknown when the evaluation changed', () => {
    const before = cpu({ stale_after: '5m' });
    const { state } = before.evaluator.applyEvent(before.evaluator.initialState(), ruleEvent({ id: 3, attributes: { value: 50 } }), T0);
    const step = adoptRule(before, cpu({ evaluation: { ...threshold, attribute: 'load' } }), state, T0 + 6 * MINUTE);
    expect(step.changes.map((change) => [change.cause, change.status, change.value])).toEqual([
      ['time', 'stale', 50],
      ['rule', 'unknown', null],
    ]);
    expect(step.state).toMatchObject({ status: 'unknown', value: null, version: 3, last_event_id: null });
    expect(step.wakeAt).toBeNull();
  });

  it('changes nothing visible when the rule is rewritten the same (keys in another order)', () => {
    const before = compileTile(7, { filter: { type: 'metric', name: 'cpu_usage' }, evaluation: threshold });
    const after = compileTile(7, {
      evaluation: { critical: 95, warning: 80, attribute: 'value', kind: 'threshold' },
      filter: { name: 'cpu_usage', type: 'metric' },
    });
    const { state } = before.evaluator.applyEvent(before.evaluator.initialState(), ruleEvent({ attributes: { value: 90 } }), T0);
    expect(adoptRule(before, after, state, T0 + 1).changes).toEqual([]);
    expect(adoptRule(before, after, state, T0 + 1).state.value).toBe(90);
  });
});
