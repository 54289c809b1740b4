import { describe, expect, it } from 'vitest';
import { createAjv, tileRuleValidator, type TileRule } from '@pulseboard/contracts';
import { tallyOf } from './grouping.ts';
import { RulePreview } from './preview.ts';
import { adoptGroupedRule, compileTile } from './project-rules.ts';
import { MINUTE, SECOND, T0, ruleEvent } from './test-support.ts';
import type { RuleEvent } from './event.ts';
import { ruleReads } from './reads.ts';

/** A grouped tile driven by hand, each event handled at its own time. */
function grouped(rule: TileRule, maxGroups?: number) {
  const preview = new RulePreview(rule, Number.POSITIVE_INFINITY, maxGroups);
  return {
    preview,
    send: (at: number, fields: Partial<RuleEvent>) => preview.push(ruleEvent({ time: at, ...fields }), at),
    /** Each group's status and value, by key. */
    groups: () => Object.fromEntries([...preview.groups].map(([key, { state }]) => [key, [state.status, state.value]])),
    shown: () => [preview.current.status, preview.current.value],
  };
}

const host = (name: string, attributes: Record<string, unknown> = {}) => ({ attributes: { host: name, ...attributes } });

describe('grouped tiles: each evaluation kind per group', () => {
  it('threshold: one state per host, the tile showing the worst and how many groups have it', () => {
    const tile = grouped({ group_by: 'host', evaluation: { kind: 'threshold', attribute: 'cpu', warning: 80, critical: 90 } });
    tile.send(T0, host('a', { cpu: 95 }));
    tile.send(T0 + 1, host('b', { cpu: 50 }));
    tile.send(T0 + 2, host('c', { cpu: 97 }));
    // The last event (ok on b) does not hide the other hosts: before grouping it would have set the tile ok.
    tile.send(T0 + 3, host('b', { cpu: 40 }));
    expect(tile.groups()).toEqual({ a: ['critical', 95], b: ['ok', 40], c: ['critical', 97] });
    expect(tile.shown()).toEqual(['critical', 2]);
    expect(tallyOf(tile.preview.current).counts).toEqual({ critical: 2, warning: 0, stale: 0, unknown: 0, ok: 1 });
    tile.send(T0 + 4, host('a', { cpu: 10 }));
    tile.send(T0 + 5, host('c', { cpu: 85 }));
    expect(tile.shown()).toEqual(['warning', 1]);
    // Group changes carry their key, the tile's own changes none.
    const changes = tile.preview.changes;
    expect(changes.filter((c) => c.group === 'c').map((c) => [c.status, c.value])).toEqual([
      ['critical', 97],
      ['warning', 85],
    ]);
    expect(changes.filter((c) => c.group === undefined).map((c) => [c.status, c.value])).toEqual([
      ['critical', 1],
      ['critical', 2],
      ['critical', 1],
      ['warning', 1],
    ]);
  });

  it('status_map: by an envelope field (source)', () => {
    const tile = grouped({ group_by: 'source', evaluation: { kind: 'status_map', map: { up: 'ok', down: 'critical' } } });
    tile.send(T0, { source: 'api', name: 'down' });
    tile.send(T0 + 1, { source: 'web', name: 'up' });
    tile.send(T0 + 2, { source: 'api', name: 'up' });
    expect(tile.groups()).toEqual({ api: ['ok', 'up'], web: ['ok', 'up'] });
    expect(tile.shown()).toEqual(['ok', 2]);
  });

  it('up_down: by a nested attribute path, numbers and booleans as text keys', () => {
    const tile = grouped({ group_by: 'svc.port', evaluation: { kind: 'up_down', attribute: 'up' } });
    tile.send(T0, { attributes: { svc: { port: 443 }, up: false } });
    tile.send(T0 + 1, { attributes: { svc: { port: 80 }, up: true } });
    expect(tile.groups()).toEqual({ '443': ['critical', false], '80': ['ok', true] });
    expect(tile.shown()).toEqual(['critical', 1]);
  });

  it('window: each group counts its own events, and its entries leave its window on their own', () => {
    const tile = grouped({ group_by: 'host', evaluation: { kind: 'window', aggregate: 'count', window: '1m', warning: 2, critical: 3 } });
    for (let i = 0; i < 3; i++) tile.send(T0 + i * SECOND, host('a'));
    tile.send(T0 + 30 * SECOND, host('b'));
    expect(tile.groups()).toEqual({ a: ['critical', 3], b: ['ok', 1] });
    tile.preview.finish(T0 + MINUTE + 5 * SECOND);
    expect(tile.groups()).toEqual({ a: ['ok', 0], b: ['ok', 1] });
    expect(tile.shown()).toEqual(['ok', 2]);
  });

  it('pending and recovery hold per group', () => {
    const tile = grouped({ group_by: 'host', evaluation: { kind: 'threshold', attribute: 'cpu', critical: 90 }, pending: '1m', recovery: '2m' });
    tile.send(T0, host('a', { cpu: 10 }));
    tile.send(T0, host('b', { cpu: 10 }));
    tile.send(T0 + SECOND, host('a', { cpu: 99 }));
    tile.preview.finish(T0 + 30 * SECOND);
    expect(tile.groups()).toEqual({ a: ['ok', 99], b: ['ok', 10] });
    tile.preview.finish(T0 + MINUTE + SECOND);
    expect(tile.groups()).toEqual({ a: ['critical', 99], b: ['ok', 10] });
    tile.send(T0 + 2 * MINUTE, host('a', { cpu: 5 }));
    tile.preview.finish(T0 + 3 * MINUTE);
    expect(tile.shown()).toEqual(['critical', 1]);
    tile.preview.finish(T0 + 4 * MINUTE);
    expect(tile.shown()).toEqual(['ok', 2]);
  });

  it('stale_after: a silent group goes stale while the others stay live', () => {
    const tile = grouped({ group_by: 'host', evaluation: { kind: 'up_down', attribute: 'up' }, stale_after: '5m' });
    tile.send(T0, host('a', { up: true }));
    tile.send(T0, host('b', { up: true }));
    for (let m = 1; m <= 6; m++) tile.send(T0 + m * MINUTE, host('a', { up: true }));
    expect(tile.groups()).toEqual({ a: ['ok', true], b: ['stale', true] });
    expect(tile.shown()).toEqual(['stale', 1]);
  });
});

describe('grouped tiles: keys, limits and retirement', () => {
  const rule: TileRule = { group_by: 'host', evaluation: { kind: 'up_down', attribute: 'up' } };

  it('puts an event without the value (or with an object or empty text there) in the (none) group', () => {
    const tile = grouped(rule);
    tile.send(T0, { attributes: { up: false } });
    tile.send(T0 + 1, { attributes: { host: { name: 'x' }, up: false } });
    tile.send(T0 + 2, { attributes: { host: '', up: true } });
    expect(tile.groups()).toEqual({ '(none)': ['ok', true] });
  });

  it('refuses new groups past the limit and counts them, never merging them into a group', () => {
    const tile = grouped(rule, 2);
    tile.send(T0, host('a', { up: true }));
    tile.send(T0 + 1, host('b', { up: true }));
    tile.send(T0 + 2, host('c', { up: false }));
    tile.send(T0 + 3, host('d', { up: false }));
    tile.send(T0 + 4, host('a', { up: false })); // an existing group still takes its events
    expect(tile.groups()).toEqual({ a: ['critical', false], b: ['ok', true] });
    expect(tallyOf(tile.preview.current).refused).toBe(2);
    tile.send(T0 + 5, host('x'.repeat(257), { up: false }));
    expect(tallyOf(tile.preview.current).refused).toBe(3);
  });

  it('retires a group silent for group_retire_after, freeing its place', () => {
    const tile = grouped({ ...rule, group_retire_after: '10m' }, 2);
    tile.send(T0, host('a', { up: false }));
    tile.send(T0 + MINUTE, host('b', { up: true }));
    tile.send(T0 + 9 * MINUTE, host('b', { up: true }));
    tile.preview.finish(T0 + 10 * MINUTE);
    expect(tile.groups()).toEqual({ b: ['ok', true] });
    expect(tile.shown()).toEqual(['ok', 1]);
    const last = tile.preview.changes.at(-1)!;
    expect([last.group, last.cause, last.previous_status, last.status, last.changed_at - T0]).toEqual([undefined, 'time', 'critical', 'ok', 10 * MINUTE]);
    tile.send(T0 + 11 * MINUTE, host('c', { up: true }));
    expect(Object.keys(tile.groups()).sort()).toEqual(['b', 'c']);
    expect(tallyOf(tile.preview.current).refused).toBe(0);
    tile.preview.finish(T0 + 40 * MINUTE);
    expect(tile.groups()).toEqual({});
    expect(tile.shown()).toEqual(['unknown', null]);
  });

  it('validates group_by and group_retire_after', () => {
    const validate = tileRuleValidator(createAjv());
    expect(validate({ ...rule, group_retire_after: '30d' })).toBeNull();
    expect(validate({ ...rule, group_retire_after: '31d' })).toEqual({ 'rule.group_retire_after': ['is too long (maximum is 30d)'] });
    expect(validate({ evaluation: rule.evaluation, group_retire_after: '1h' })).toEqual({ 'rule.group_retire_after': ['is allowed only with group_by'] });
    expect(validate({ ...rule, group_by: '' })).not.toBeNull();
    expect(validate({ ...rule, group_by: 'a..b' })).not.toBeNull();
  });
});

describe('grouped tiles: rule changes', () => {
  it('keeps the groups when only damping changes, and drops them (unknown) when group_by changes', () => {
    const before = compileTile(1, { group_by: 'host', evaluation: { kind: 'up_down', attribute: 'up' } });
    const preview = new RulePreview(before.rule);
    preview.push(ruleEvent({ time: T0, attributes: { host: 'a', up: false } }), T0);
    const damped = compileTile(1, { ...before.rule, stale_after: '1m' });
    const kept = adoptGroupedRule(before, damped, preview.current, preview.groups, T0 + 2 * MINUTE);
    expect(kept.groups.map((g) => [g.key, g.record?.state.status])).toEqual([['a', 'stale']]);
    expect(kept.tile.state).toMatchObject({ status: 'stale', value: 1 });

    const regrouped = compileTile(1, { ...before.rule, group_by: 'region' });
    const dropped = adoptGroupedRule(before, regrouped, preview.current, preview.groups, T0 + MINUTE);
    expect(dropped.groups).toEqual([{ key: 'a', record: null, changes: [], wakeAt: null }]);
    expect(dropped.tile.changes.map((c) => [c.cause, c.status, c.previous_status])).toEqual([['rule', 'unknown', 'critical']]);
    expect(tallyOf(dropped.tile.state).counts.critical).toBe(0);
  });
});

describe('grouped tiles: what a preview reads of stored events', () => {
  it('reads the group_by path or envelope field', () => {
    const evaluation = { kind: 'up_down', attribute: 'up' } as const;
    expect(ruleReads({ group_by: 'labels.fingerprint', evaluation }).attributeKeys).toEqual(['up', 'labels']);
    expect(ruleReads({ group_by: 'source', evaluation })).toMatchObject({ source: true, channel: false, attributeKeys: ['up'] });
    expect(ruleReads({ group_by: 'channel', evaluation })).toMatchObject({ source: false, channel: true });
  });
});
