import { setTimeout as sleep } from 'node:timers/promises';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import type { LimitDecision, LimitEnforcer } from '../limits/limiter.ts';

export type Decided = Exclude<LimitDecision, { kind: 'stale' }>;

export interface AdmissionDeps {
  limiter: LimitEnforcer;
  auth: Pick<Authenticator, 'reloadStale'>;
}

/**
 * Runs the limiter for a project whose credentials were resolved from cache.
 * The limiter's script answers `stale` when Redis holds another revision of the
 * project (key regenerated, limits changed, Redis restarted); auth then re-reads
 * the project (or refuses the key: 401/404, thrown) and the check is repeated.
 */
export async function admit(
  deps: AdmissionDeps,
  cached: ProjectAuth,
  options: { apiKey?: string; events: number; consume: boolean },
): Promise<{ project: ProjectAuth; decision: Decided }> {
  let project = cached;
  for (let attempt = 0; attempt < 5; attempt++) {
    const decision = options.consume ? await deps.limiter.consume(project, options.events) : await deps.limiter.check(project, options.events);
    if (decision.kind !== 'stale') return { project, decision };
    const fresh = await deps.auth.reloadStale(project, options.apiKey);
    // A newer revision in Redis than in Postgres: a change is committing right now.
    if (fresh.revision === project.revision) await sleep(20 * (attempt + 1));
    project = fresh;
  }
  throw new PulseboardError('service_unavailable', { message: 'Project settings are changing, retry shortly' });
}
