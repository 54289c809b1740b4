import { Counter, type Registry } from 'prom-client';

/**
 * The counters of one revision cache (@pulseboard/control-plane's
 * RevisionCache), labelled by cache: `pulseboard_revision_cache_hits_total{cache}`
 * and `pulseboard_revision_cache_reloads_total{cache,trigger}`, trigger being
 * what made it read the owner again (miss, offer, poll). One pair of series
 * names for every cache of every service (the scrape's job tells services
 * apart). Structurally the cache's `metrics` option, so this package need not
 * depend on that one.
 */
export function revisionCacheMetrics(registry: Registry, cache: string): { hit(): void; reloaded(trigger: 'miss' | 'offer' | 'poll'): void } {
  const hits =
    (registry.getSingleMetric('pulseboard_revision_cache_hits_total') as Counter<'cache'> | undefined) ??
    new Counter({
      name: 'pulseboard_revision_cache_hits_total',
      help: 'Reads of a revision cache served from memory',
      labelNames: ['cache'],
      registers: [registry],
    });
  const reloads =
    (registry.getSingleMetric('pulseboard_revision_cache_reloads_total') as Counter<'cache' | 'trigger'> | undefined) ??
    new Counter({
      name: 'pulseboard_revision_cache_reloads_total',
      help: "Reads of a revision cache from its owner's tables, by what asked for it",
      labelNames: ['cache', 'trigger'],
      registers: [registry],
    });
  return { hit: () => hits.inc({ cache }), reloaded: (trigger) => reloads.inc({ cache, trigger }) };
}
