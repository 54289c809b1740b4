import { describe, expect, it } from 'vitest';
import type { TileRuleFilter } from '@pulseboard/contracts';
import { compileFilter } from './filter.ts';
import { ruleEvent } from './test-support.ts';

const matches = (filter: TileRuleFilter, fields: Parameters<typeof ruleEvent>[0] = {}) => compileFilter(filter)(ruleEvent(fields));
const onAttribute = (condition: NonNullable<TileRuleFilter['attributes']>[string], value: unknown) =>
  compileFilter({ attributes: { 'http.status_code': condition } })(
    ruleEvent({ attributes: value === undefined ? { http: {} } : { http: { status_code: value } } }),
  );

describe('rule filter', () => {
  it('matches every event when empty or absent', () => {
    expect(compileFilter()(ruleEvent())).toBe(true);
    expect(matches({}, { type: 'error', name: 'crash' })).toBe(true);
  });

  it('takes a string or a list for type, name, severity, source and channel', () => {
    expect(matches({ type: 'metric' })).toBe(true);
    expect(matches({ type: 'uptime' })).toBe(false);
    expect(matches({ type: ['uptime', 'metric'] })).toBe(true);
    expect(matches({ name: ['memory_usage'] })).toBe(false);
    expect(matches({ name: ['memory_usage', 'cpu_usage', 'disk_usage'] })).toBe(true);
    expect(matches({ severity: 'critical' }, { severity: 'critical' })).toBe(true);
    expect(matches({ severity: ['warn', 'error'] }, { severity: 'critical' })).toBe(false);
    // An event without the field never matches a filter on it.
    expect(matches({ severity: 'info' })).toBe(false);
    expect(matches({ source: ['web-1', 'web-2'] })).toBe(false);
    expect(matches({ source: 'web-1', channel: 'eu' }, { source: 'web-1', channel: 'eu' })).toBe(true);
    expect(matches({ source: 'web-1', channel: 'eu' }, { source: 'web-1', channel: 'us' })).toBe(false);
  });

  it('wants every label of the filter on the event', () => {
    expect(matches({ labels: ['prod', 'eu'] }, { labels: ['eu', 'canary', 'prod'] })).toBe(true);
    expect(matches({ labels: ['prod', 'eu'] }, { labels: ['prod'] })).toBe(false);
    expect(matches({ labels: [] }, { labels: [] })).toBe(true);
  });

  it('compares an attribute path to a value without coercion', () => {
    expect(matches({ attributes: { host: 'web-1' } }, { attributes: { host: 'web-1' } })).toBe(true);
    expect(matches({ attributes: { host: 'web-1' } }, { attributes: { host: 'web-2' } })).toBe(false);
    expect(onAttribute(500, 500)).toBe(true);
    expect(onAttribute(500, '500')).toBe(false);
    expect(onAttribute(true, true)).toBe(true);
    expect(onAttribute(null, null)).toBe(true);
    expect(onAttribute(null, undefined)).toBe(false);
  });

  it('follows dotted paths through objects and array indexes, never into prototypes', () => {
    expect(matches({ attributes: { 'tags.1': 'db' } }, { attributes: { tags: ['web', 'db'] } })).toBe(true);
    expect(matches({ attributes: { 'a.b.c': { exists: true } } }, { attributes: { a: { b: 'not an object' } } })).toBe(false);
    expect(matches({ attributes: { 'a.constructor': { exists: true } } }, { attributes: { a: {} } })).toBe(false);
    expect(matches({ attributes: { 'a.length': { exists: true } } }, { attributes: { a: 'text' } })).toBe(false);
  });

  it('applies each operator', () => {
    expect(onAttribute({ eq: 500 }, 500)).toBe(true);
    expect(onAttribute({ eq: 500 }, 501)).toBe(false);
    expect(onAttribute({ ne: 500 }, 501)).toBe(true);
    expect(onAttribute({ ne: 500 }, 500)).toBe(false);
    expect(onAttribute({ ne: 500 }, undefined)).toBe(true);
    expect(onAttribute({ in: [500, 502, 503] }, 502)).toBe(true);
    expect(onAttribute({ in: [500, 502, 503] }, 404)).toBe(false);
    expect(onAttribute({ in: ['500'] }, 500)).toBe(false);
    expect(onAttribute({ gt: 499 }, 500)).toBe(true);
    expect(onAttribute({ gt: 500 }, 500)).toBe(false);
    expect(onAttribute({ gte: 500 }, 500)).toBe(true);
    expect(onAttribute({ gte: 500 }, 499.9)).toBe(false);
    expect(onAttribute({ lt: 500 }, 499)).toBe(true);
    expect(onAttribute({ lt: 500 }, 500)).toBe(false);
    expect(onAttribute({ lte: 500 }, 500)).toBe(true);
    expect(onAttribute({ lte: 500 }, 500.1)).toBe(false);
    expect(onAttribute({ gt: 1 }, '500')).toBe(false);
    expect(onAttribute({ lt: 1 }, null)).toBe(false);
    expect(onAttribute({ exists: true }, 0)).toBe(true);
    expect(onAttribute({ exists: true }, null)).toBe(true);
    expect(onAttribute({ exists: true }, undefined)).toBe(false);
    expect(onAttribute({ exists: false }, undefined)).toBe(true);
    expect(onAttribute({ exists: false }, 'x')).toBe(false);
    expect(onAttribute({ contains: 'time' }, 'read timeout')).toBe(true);
    expect(onAttribute({ contains: 'time' }, 'refused')).toBe(false);
    expect(onAttribute({ contains: 'db' }, ['web', 'db'])).toBe(true);
    expect(onAttribute({ contains: 404 }, [500, 404])).toBe(true);
    expect(onAttribute({ contains: 404 }, 'error 404')).toBe(false);
    expect(onAttribute({ contains: 'x' }, { x: 1 })).toBe(false);
  });

  it('wants every operator of a condition and every key of the filter', () => {
    expect(onAttribute({ gte: 500, lt: 600 }, 503)).toBe(true);
    expect(onAttribute({ gte: 500, lt: 600 }, 600)).toBe(false);
    const filter: TileRuleFilter = {
      type: 'uptime',
      name: 'http_check',
      labels: ['prod'],
      attributes: { status_code: { gte: 500 }, url: { contains: '/api' } },
    };
    const event = { type: 'uptime', name: 'http_check', labels: ['prod'], attributes: { status_code: 502, url: 'https://x/api/v1' } };
    expect(matches(filter, event)).toBe(true);
    expect(matches(filter, { ...event, labels: [] })).toBe(false);
    expect(matches(filter, { ...event, attributes: { ...event.attributes, status_code: 200 } })).toBe(false);
    expect(matches(filter, { ...event, name: 'ping_check' })).toBe(false);
  });
});
