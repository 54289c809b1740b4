import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { revisionCacheMetrics } from './revision-cache-metrics.ts';

describe('revisionCacheMetrics', () => {
  it('counts hits and reloads by trigger under the pulseboard_ prefix', async () => {
    const registry = new Registry();
    const metrics = revisionCacheMetrics(registry, 'rule-engine', 'rules');
    metrics.hit();
    metrics.hit();
    metrics.reloaded('offer');
    const text = await registry.metrics();
    expect(text).toContain('pulseboard_rule_engine_rules_cache_hits_total 2');
    expect(text).toContain('pulseboard_rule_engine_rules_cache_reloads_total{trigger="offer"} 1');
  });
});
