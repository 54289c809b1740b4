import { describe, expect, it } from 'vitest';
import { createAjv, mapAlertmanager, mapGitHub, tileRuleValidator, type TileRule, type WebhookEvent } from '@pulseboard/contracts';
import { TILES } from '../../../deploy/demo-tiles.ts';
import { toRuleEvent } from './event.ts';
import { RulePreview } from './preview.ts';
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
    const event = toRuleEvent({
      id: 1,
      project_key: 'demo',
      account_id: 1,
      type: 'deployment',
      name: 'deploy_finished',
      timestamp: new Date(T0).toISOString(),
      received_at: new Date(T0).toISOString(),
      attributes: { version: '1.0.0' },
    });
    expect(project.invalid).toEqual([]);
    expect(project.matching(event).map((tile) => tile.id)).toEqual([1]);
    const { evaluator } = project.tiles.get(1) ?? expect.unreachable();
    const { state } = evaluator.applyEvent(evaluator.initialState(), event, T0);
    expect([state.status, state.value]).toEqual(['ok', 'deploy_finished']);
  });

  it('follow GitHub deployments and Alertmanager alerts as the integrations map them', () => {
    const project = compileProjectRules(
      TILES.map((tile, i) => ({ id: i + 1, rule: tile.rule })),
      tileRuleValidator(createAjv()),
    );
    const at = new Date(T0);
    const asRuleEvent = (e: WebhookEvent, id: number) => toRuleEvent({ ...e, id, project_key: 'demo', account_id: 1, received_at: at.toISOString() });
    const tileId = (name: string) => TILES.findIndex((t) => t.name === name) + 1;
    const statusAfter = (name: string, events: WebhookEvent[]) => {
      const { evaluator } = project.tiles.get(tileId(name)) ?? expect.unreachable();
      let state = evaluator.initialState();
      events.forEach((e, i) => {
        const event = asRuleEvent(e, i + 1);
        expect(project.matching(event).map((t) => t.id)).toContain(tileId(name));
        state = evaluator.applyEvent(state, event, T0 + i).state;
      });
      return state.status;
    };
    const deployment = (state: string) => {
      const m = mapGitHub(
        {
          event: 'deployment_status',
          delivery: 'd',
          body: { deployment_status: { state, environment: 'production', updated_at: at.toISOString() }, deployment: { id: 1, sha: 'abc' } },
        },
        { receivedAt: at },
      );
      return m.kind === 'events' ? m.events[0]! : expect.unreachable();
    };
    expect(statusAfter('GitHub deployments', [deployment('in_progress')])).toBe('warning');
    expect(statusAfter('GitHub deployments', [deployment('in_progress'), deployment('failure')])).toBe('critical');
    const alert = (status: 'firing' | 'resolved') => {
      const m = mapAlertmanager(
        { alerts: [{ status, labels: { alertname: 'A' }, fingerprint: 'f', startsAt: at.toISOString(), endsAt: at.toISOString() }] },
        { receivedAt: at },
      );
      return m.kind === 'events' ? m.events[0]! : expect.unreachable();
    };
    expect(statusAfter('Alertmanager alerts', [alert('firing')])).toBe('critical');
    expect(statusAfter('Alertmanager alerts', [alert('firing'), alert('resolved')])).toBe('ok');
  });

  it('show an Alertmanager alert still firing when another resolves after it in the same webhook (one state per fingerprint)', () => {
    const at = new Date(T0);
    const tile = TILES.find((t) => t.name === 'Alertmanager alerts') ?? expect.unreachable();
    const mapped = mapAlertmanager(
      {
        alerts: [
          { status: 'firing', labels: { alertname: 'DiskFull', instance: 'db-1' }, fingerprint: 'aaa', startsAt: at.toISOString() },
          {
            status: 'resolved',
            labels: { alertname: 'HighLatency', instance: 'api-1' },
            fingerprint: 'bbb',
            startsAt: at.toISOString(),
            endsAt: at.toISOString(),
          },
        ],
      },
      { receivedAt: at },
    );
    const events = mapped.kind === 'events' ? mapped.events : expect.unreachable();
    const preview = new RulePreview(tile.rule as TileRule);
    events.forEach((e, i) => preview.push(toRuleEvent({ ...e, id: i + 1, project_key: 'demo', account_id: 1, received_at: at.toISOString() }), T0 + i));
    // The last event is the resolved one: without group_by it decided the tile, ok.
    expect([preview.current.status, preview.current.value]).toEqual(['critical', 1]);
    expect(Object.fromEntries([...preview.groups].map(([key, g]) => [key, g.state.status]))).toEqual({ aaa: 'critical', bbb: 'ok' });
  });
});
