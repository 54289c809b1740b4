import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { revisionCacheMetrics } from './revision-cache-metrics.ts';

describe('revisionCacheMetrics', () => {
  it('counts hits and reloads by cache and trigger, two caches of one service on the same series names', async () => {
    const registry = new Registry();
    const rules = revisionCacheMetrics(registry, 'rules');
    const targets = revisionCacheMetrics(registry, 'targets');
    rules.hit();
    rules.hit();
    targets.hit();
    rules.reloaded('offer');
    const text = await registry.metrics();
    expect(text).toContain('pulseboard_revision_cache_hits_total{cache="rules"} 2');
    expect(text).toContain('pulseboard_revision_cache_hits_total{cache="targets"} 1');
    expect(text).toContain('pulseboard_revision_cache_reloads_total{cache="rules",trigger="offer"} 1');
  });
});
