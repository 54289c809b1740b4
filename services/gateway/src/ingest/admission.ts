import { setTimeout as sleep } from 'node:timers/promises';
import type { ProjectAuth, ProjectDirectory } from '../auth/project-directory.ts';
import type { LimitDecision, Limiter } from '../limits/limiter.ts';
import { apiError, type ApiError } from '../replies.ts';

export type Admission =
  | { ok: true; project: ProjectAuth; decision: Exclude<LimitDecision, { kind: 'stale' }> }
  | { ok: false; error: ApiError };

/**
 * Runs the limiter for a project whose credentials were resolved from cache.
 * When Redis says the cached revision is stale (key regenerated, limits changed,
 * Redis restarted), the project is re-read from Postgres and the check repeated.
 */
export async function admit(
  deps: { limiter: Limiter; directory: ProjectDirectory },
  cached: ProjectAuth,
  options: { apiKey?: string; events: number; consume: boolean },
): Promise<Admission> {
  let project = cached;
  for (let attempt = 0; attempt < 5; attempt++) {
    const decision = options.consume ? await deps.limiter.consume(project, options.events) : await deps.limiter.check(project, options.events);
    if (decision.kind !== 'stale') return { ok: true, project, decision };
    const fresh = await deps.directory.refresh(project, options.apiKey);
    if (fresh === undefined) {
      return { ok: false, error: options.apiKey === undefined ? apiError(404, 'project_not_found', 'No project exists for this key') : apiError(401, 'invalid_api_key', 'The API key is invalid') };
    }
    if (fresh.deleted) return { ok: false, error: apiError(404, 'project_not_found', 'No project exists for this key') };
    // A newer revision in Redis than in Postgres: a change is committing right now.
    if (fresh.revision === project.revision) await sleep(20 * (attempt + 1));
    project = fresh;
  }
  return { ok: false, error: apiError(503, 'service_unavailable', 'Project settings are changing, retry shortly', { headers: { 'retry-after': 1 } }) };
}
