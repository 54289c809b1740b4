import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.ts';
import type { ProjectAuth } from '../auth/project-directory.ts';
import { isApiError, readableProjects, resolvePrincipal } from '../auth/principal.ts';
import { admit } from '../ingest/admission.ts';
import { limitsReport } from '../limits/limits-report.ts';
import { errors, sendError, type ApiError } from '../replies.ts';

const querySchema = {
  type: 'object',
  properties: { project_key: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/**
 * GET /api/v1/rate_limits (spec 4.5): every limit with limit, used, remaining
 * and reset, read without consuming anything.
 * - A project API key sees its own project: `{data: {project_key, limits}}`.
 * - A user token sees every project of its account, ordered by key:
 *   `{data: [{project_key, limits}, ...]}`; `?project_key=` narrows the list to
 *   one (404 `not_found` when it is not the account's).
 */
export function registerRateLimitRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get<{ Querystring: { project_key?: string } }>('/api/v1/rate_limits', { schema: { querystring: querySchema } }, async (request, reply) => {
    const principal = await resolvePrincipal(request, deps);
    if (isApiError(principal)) return sendError(reply, 'envelope', principal);
    const requested = request.query.project_key;

    if (principal.kind === 'project') {
      if (requested !== undefined && requested !== principal.project.projectKey) return sendError(reply, 'envelope', errors.notFound('Project'));
      const report = await reportFor(principal.project, principal.apiKey);
      return isApiError(report) ? sendError(reply, 'envelope', report) : reply.send({ data: report });
    }

    const keys = await readableProjects(principal, deps.pool, requested);
    if (requested !== undefined && keys.length === 0) return sendError(reply, 'envelope', errors.notFound('Project'));
    const reports = [];
    for (const key of keys) {
      const project = await deps.directory.byKey(key);
      if (project === undefined || project.deleted) continue;
      const report = await reportFor(project);
      if (!isApiError(report)) reports.push(report);
    }
    return reply.send({ data: reports });
  });

  async function reportFor(project: ProjectAuth, apiKey?: string): Promise<ReturnType<typeof limitsReport> | ApiError> {
    // A read of zero events: never refused, consumes nothing, re-reads the project if it changed.
    const admission = await admit(deps, project, apiKey === undefined ? { events: 0, consume: false } : { apiKey, events: 0, consume: false });
    if (!admission.ok) return admission.error;
    const { decision } = admission;
    return limitsReport(admission.project, decision.usage, decision.windows);
  }
}
