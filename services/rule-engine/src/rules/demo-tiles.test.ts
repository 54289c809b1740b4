import { describe, expect, it } from 'vitest';
import { createAjv, tileRuleValidator } from '@pulseboard/contracts';
import { TILES } from '../../../../deploy/demo-tiles.ts';
import { toRuleEvent } from './event.ts';
import { compileProjectRules } from './project-rules.ts';
import { T0 } from './test-support.ts';

describe('the demo tiles of deploy/seed-demo.ts', () => {
  it('conform to the published rule schema', () => {
    const validate = tileRuleValidator(createAjv());
    for (const tile of TILES) expect([tile.name, validate(tile.rule)]).toEqual([tile.name, null]);
  });

  it('evaluate the events the seed script suggests trying', () => {
    const project = compileProjectRules(
      TILES.map((tile, i) => ({ id: i + 1, rule: tile.rule })),
      tileRuleValidator(createAjv()),
    );
    const event = toRuleEvent({ id: 1, project_key: 'demo', account_id: 1, type: 'deployment', name: 'deploy_finished', timestamp: new Date(T0).toISOString(), received_at: new Date(T0).toISOString(), attributes: { version: '1.0.0' } });
    expect(project.invalid).toEqual([]);
    expect(project.matching(event).map((tile) => tile.id)).toEqual([1]);
    const { evaluator } = project.tiles.get(1) ?? expect.unreachable();
    const { state } = evaluator.applyEvent(evaluator.initialState(), event, T0);
    expect([state.status, state.value]).toEqual(['ok', 'deploy_finished']);
  });
});
