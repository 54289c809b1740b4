import { describe, expect, it } from 'vitest';
import type { TileRule } from '@pulseboard/contracts';
import { RulePreview } from './preview.ts';
import { narrowEvent, ruleReads } from './reads.ts';
import { SECOND, T0, ruleEvent, seededRandom } from './test-support.ts';

const RULES: TileRule[] = [
  { evaluation: { kind: 'window', aggregate: 'avg', attribute: 'value', window: '1m', warning: 50, critical: 80 } },
  {
    filter: { type: 'metric', severity: ['warn', 'error'], labels: ['prod'] },
    evaluation: { kind: 'threshold', attribute: 'http.status', warning: 400, critical: 500 },
  },
  {
    filter: { source: 'github', channel: 'deploys', attributes: { 'meta.env': 'prod', region: { exists: true } } },
    evaluation: { kind: 'status_map', map: { a: 'ok', b: 'critical' } },
  },
  { filter: { attributes: { tags: { contains: 'x' } } }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '30s' },
  { evaluation: { kind: 'window', aggregate: 'count', window: '30s', warning: 3 } },
];

describe('ruleReads', () => {
  it('names what the filter and evaluation read', () => {
    expect(ruleReads(RULES[1]!)).toEqual({ severity: true, source: false, channel: false, labels: true, attributeKeys: ['http'] });
    expect(ruleReads(RULES[2]!)).toEqual({ severity: false, source: true, channel: true, labels: false, attributeKeys: ['meta', 'region'] });
    expect(ruleReads(RULES[4]!)).toEqual({ severity: false, source: false, channel: false, labels: false, attributeKeys: [] });
  });

  it('a rule evaluates the narrowed events exactly as the whole ones (seeded random events)', () => {
    const random = seededRandom(28);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
    const events = Array.from({ length: 3000 }, (_, i) =>
      ruleEvent({
        id: i + 1,
        type: pick(['metric', 'deployment', 'error']),
        name: pick(['a', 'b', 'c']),
        time: T0 + i * SECOND,
        severity: pick([undefined, 'info', 'warn', 'error']),
        source: pick([undefined, 'github', 'ci']),
        channel: pick([undefined, 'deploys', 'ops']),
        labels: pick([[], ['prod'], ['prod', 'x'], ['staging']]),
        attributes: {
          value: Math.floor(random() * 100),
          http: { status: pick([200, 404, 503]) },
          meta: { env: pick(['prod', 'dev']) },
          ...(random() < 0.5 ? { region: null } : {}),
          tags: pick([['x'], ['y'], 'xyz']),
          is_up: random() < 0.8,
          other: 'not read',
        },
      }),
    );
    for (const rule of RULES) {
      const reads = ruleReads(rule);
      const whole = new RulePreview(rule);
      const narrowed = new RulePreview(rule);
      for (const event of events) {
        whole.push(event, event.time);
        narrowed.push(narrowEvent(event, reads), event.time);
      }
      expect(whole.matched, JSON.stringify(rule)).toBeGreaterThan(0);
      expect({ matched: narrowed.matched, changes: narrowed.changes }).toEqual({ matched: whole.matched, changes: whole.changes });
    }
  });
});
