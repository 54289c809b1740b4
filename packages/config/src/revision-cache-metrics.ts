import { Counter, type Registry } from 'prom-client';

/**
 * The counters of one revision cache (@pulseboard/control-plane's
 * RevisionCache): `pulseboard_<service>_<cache>_cache_hits_total` and
 * `pulseboard_<service>_<cache>_cache_reloads_total{trigger}`, trigger being
 * what made it read the owner again (miss, offer, poll). Structurally the
 * cache's `metrics` option, so this package need not depend on that one.
 */
export function revisionCacheMetrics(registry: Registry, service: string, cache: string): { hit(): void; reloaded(trigger: 'miss' | 'offer' | 'poll'): void } {
  const prefix = `pulseboard_${service.replaceAll('-', '_')}_${cache}_cache`;
  const hits = new Counter({ name: `${prefix}_hits_total`, help: `Reads of the ${cache} cache served from memory`, registers: [registry] });
  const reloads = new Counter({
    name: `${prefix}_reloads_total`,
    help: `Reads of the ${cache} cache from its owner, by what asked for it`,
    labelNames: ['trigger'],
    registers: [registry],
  });
  return { hit: () => hits.inc(), reloaded: (trigger) => reloads.inc({ trigger }) };
}
