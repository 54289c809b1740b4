import { describe, expect, it } from 'vitest';
import { createAjv, tileRuleValidator, type IngestedEvent, type TileRule } from '@pulseboard/contracts';
import { toRuleEvent } from './event.ts';
import { compileProjectRules } from './project-rules.ts';
import type { TileState } from './tile-state.ts';

/**
 * The worked examples of docs/rules.md, one per event category of spec 6:
 * each event arrives at its own timestamp, the timer fires when the tile asks.
 * Each row is what the doc's table shows: time, what happened, status, value, version.
 */
type Row = [time: string, happening: string, status: string, value: unknown, version: number];
type Send = { at: string; name: string; attributes: Record<string, unknown>; severity?: IngestedEvent['severity'] };

const day = '2026-03-01T';
const ms = (time: string) => Date.parse(`${day}${time}Z`);

function play(type: IngestedEvent['type'], rule: TileRule, sends: readonly Send[], until: string): Row[] {
  const project = compileProjectRules([{ id: 1, rule }], tileRuleValidator(createAjv()));
  const tile = project.tiles.get(1);
  if (tile === undefined) throw new Error(`rule not valid: ${JSON.stringify(project.invalid)}`);
  let state: TileState = tile.evaluator.initialState();
  let wakeAt: number | null = null;
  const rows: Row[] = [];
  const show = (time: number, happening: string) =>
    rows.push([new Date(time).toISOString().slice(11, 19), happening, state.status, state.value, state.version]);
  const tickUntil = (limit: number) => {
    while (wakeAt !== null && wakeAt <= limit) {
      const at: number = wakeAt;
      const step = tile.evaluator.advance(state, at);
      ({ state, wakeAt } = step);
      if (step.changes.length > 0) show(at, 'timer');
    }
  };
  sends.forEach((send, i) => {
    const at = ms(send.at);
    tickUntil(at);
    const event = toRuleEvent({
      id: i + 1,
      project_key: 'web',
      account_id: 1,
      type,
      name: send.name,
      timestamp: `${day}${send.at}Z`,
      received_at: `${day}${send.at}Z`,
      attributes: send.attributes,
      ...(send.severity ? { severity: send.severity } : {}),
    });
    const matched = project.matching(event).length > 0;
    const step = matched ? tile.evaluator.applyEvent(state, event, at) : { state, changes: [], wakeAt };
    ({ state, wakeAt } = step);
    show(at, `${send.name} ${JSON.stringify(send.attributes)}${matched ? '' : ' (filter: no)'}${step.changes.length > 0 ? ' affected' : ''}`);
  });
  tickUntil(ms(until));
  return rows;
}

describe('worked examples of docs/rules.md', () => {
  it('deployment: status_map', () => {
    const rule: TileRule = {
      filter: { type: 'deployment', attributes: { environment: 'production' } },
      evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical', deploy_rolled_back: 'warning' } },
    };
    const production = { environment: 'production' };
    expect(
      play(
        'deployment',
        rule,
        [
          { at: '10:00:00', name: 'deploy_started', attributes: production },
          { at: '10:01:00', name: 'deploy_started', attributes: { environment: 'staging' } },
          { at: '10:04:00', name: 'deploy_failed', attributes: production },
          { at: '10:05:00', name: 'deploy_rolled_back', attributes: production },
          { at: '10:09:00', name: 'deploy_started', attributes: production },
          { at: '10:12:00', name: 'deploy_finished', attributes: production },
        ],
        '11:00:00',
      ),
    ).toEqual([
      ['10:00:00', 'deploy_started {"environment":"production"} affected', 'warning', 'deploy_started', 1],
      ['10:01:00', 'deploy_started {"environment":"staging"} (filter: no)', 'warning', 'deploy_started', 1],
      ['10:04:00', 'deploy_failed {"environment":"production"} affected', 'critical', 'deploy_failed', 2],
      ['10:05:00', 'deploy_rolled_back {"environment":"production"} affected', 'warning', 'deploy_rolled_back', 3],
      ['10:09:00', 'deploy_started {"environment":"production"} affected', 'warning', 'deploy_started', 4],
      ['10:12:00', 'deploy_finished {"environment":"production"} affected', 'ok', 'deploy_finished', 5],
    ]);
  });

  it('uptime: up_down with recovery and stale_after', () => {
    const rule: TileRule = {
      filter: { type: 'uptime', name: 'http_check', attributes: { url: { contains: '/health' } } },
      evaluation: { kind: 'up_down', attribute: 'is_up' },
      recovery: '2m',
      stale_after: '5m',
    };
    const url = 'https://api.example.com/health';
    expect(
      play(
        'uptime',
        rule,
        [
          { at: '10:00:00', name: 'http_check', attributes: { url, is_up: true } },
          { at: '10:01:00', name: 'http_check', attributes: { url, is_up: false, status_code: 503 } },
          { at: '10:02:00', name: 'http_check', attributes: { url, is_up: true } },
          { at: '10:03:00', name: 'http_check', attributes: { url, is_up: true } },
        ],
        '11:00:00',
      ),
    ).toEqual([
      ['10:00:00', `http_check {"url":"${url}","is_up":true} affected`, 'ok', true, 1],
      ['10:01:00', `http_check {"url":"${url}","is_up":false,"status_code":503} affected`, 'critical', false, 2],
      ['10:02:00', `http_check {"url":"${url}","is_up":true} affected`, 'critical', true, 3],
      ['10:03:00', `http_check {"url":"${url}","is_up":true}`, 'critical', true, 3],
      ['10:04:00', 'timer', 'ok', true, 4],
      ['10:08:00', 'timer', 'stale', true, 5],
    ]);
  });

  it('error: a count window', () => {
    const rule: TileRule = {
      filter: { type: 'error', severity: ['error', 'critical'] },
      evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 3, critical: 5 },
    };
    const error = { severity: 'error' as const, attributes: { error_class: 'TimeoutError' } };
    expect(
      play(
        'error',
        rule,
        [
          { at: '10:00:00', name: 'exception', ...error },
          { at: '10:01:00', name: 'exception', ...error },
          { at: '10:01:30', name: 'warning', severity: 'warn', attributes: {} },
          { at: '10:02:00', name: 'crash', ...error },
          { at: '10:02:30', name: 'exception', ...error },
          { at: '10:03:00', name: 'exception', ...error },
        ],
        '11:00:00',
      ),
    ).toEqual([
      ['10:00:00', 'exception {"error_class":"TimeoutError"} affected', 'ok', 1, 1],
      ['10:01:00', 'exception {"error_class":"TimeoutError"} affected', 'ok', 2, 2],
      ['10:01:30', 'warning {} (filter: no)', 'ok', 2, 2],
      ['10:02:00', 'crash {"error_class":"TimeoutError"} affected', 'warning', 3, 3],
      ['10:02:30', 'exception {"error_class":"TimeoutError"} affected', 'warning', 4, 4],
      ['10:03:00', 'exception {"error_class":"TimeoutError"} affected', 'critical', 5, 5],
      ['10:05:00', 'timer', 'warning', 4, 6],
      ['10:06:00', 'timer', 'warning', 3, 7],
      ['10:07:00', 'timer', 'ok', 2, 8],
      ['10:07:30', 'timer', 'ok', 1, 9],
      ['10:08:00', 'timer', 'ok', 0, 10],
    ]);
  });

  it('metric: threshold with pending', () => {
    const rule: TileRule = {
      filter: { type: 'metric', name: 'cpu_usage', attributes: { host: 'web-1' } },
      evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 },
      pending: '1m',
    };
    expect(
      play(
        'metric',
        rule,
        [
          { at: '10:00:00', name: 'cpu_usage', attributes: { host: 'web-1', value: 50 } },
          { at: '10:00:30', name: 'cpu_usage', attributes: { host: 'web-1', value: 97 } },
          { at: '10:00:45', name: 'cpu_usage', attributes: { host: 'web-2', value: 99 } },
          { at: '10:01:00', name: 'cpu_usage', attributes: { host: 'web-1', value: 98 } },
          { at: '10:02:00', name: 'cpu_usage', attributes: { host: 'web-1', value: '60' } },
          { at: '10:03:00', name: 'cpu_usage', attributes: { host: 'web-1', value: 60 } },
        ],
        '11:00:00',
      ),
    ).toEqual([
      ['10:00:00', 'cpu_usage {"host":"web-1","value":50} affected', 'ok', 50, 1],
      ['10:00:30', 'cpu_usage {"host":"web-1","value":97} affected', 'ok', 97, 2],
      ['10:00:45', 'cpu_usage {"host":"web-2","value":99} (filter: no)', 'ok', 97, 2],
      ['10:01:00', 'cpu_usage {"host":"web-1","value":98} affected', 'ok', 98, 3],
      ['10:01:30', 'timer', 'critical', 98, 4],
      ['10:02:00', 'cpu_usage {"host":"web-1","value":"60"}', 'critical', 98, 4],
      ['10:03:00', 'cpu_usage {"host":"web-1","value":60} affected', 'ok', 60, 5],
    ]);
  });

  it('infrastructure: a min window, direction below', () => {
    const rule: TileRule = {
      filter: { type: 'infrastructure', attributes: { cluster: 'eu-1', ready_nodes: { exists: true } } },
      evaluation: { kind: 'window', aggregate: 'min', attribute: 'ready_nodes', window: '10m', warning: 3, critical: 1, direction: 'below' },
    };
    expect(
      play(
        'infrastructure',
        rule,
        [
          { at: '10:00:00', name: 'node_pool_scaled', attributes: { cluster: 'eu-1', ready_nodes: 5 } },
          { at: '10:04:00', name: 'node_drained', attributes: { cluster: 'eu-1', ready_nodes: 2 } },
          { at: '10:06:00', name: 'node_ready', attributes: { cluster: 'eu-1', ready_nodes: 5 } },
        ],
        '11:00:00',
      ),
    ).toEqual([
      ['10:00:00', 'node_pool_scaled {"cluster":"eu-1","ready_nodes":5} affected', 'ok', 5, 1],
      ['10:04:00', 'node_drained {"cluster":"eu-1","ready_nodes":2} affected', 'warning', 2, 2],
      ['10:06:00', 'node_ready {"cluster":"eu-1","ready_nodes":5}', 'warning', 2, 2],
      ['10:14:00', 'timer', 'ok', 5, 3],
      ['10:16:00', 'timer', 'ok', null, 4],
    ]);
  });
});
