import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { Authenticator } from '../auth/authenticator.ts';
import type { ProjectAuth, ProjectDirectory } from '../auth/project-directory.ts';
import { principalHook, readableProjects } from '../auth/principal.ts';
import { admit, type AdmissionDeps } from '../ingest/admission.ts';
import { limitsReport } from '../limits/limits-report.ts';
import { notFound } from '../error-handler.ts';
import { rateLimitsReportSchema } from '@pulseboard/contracts';
import { AUTHENTICATED, errors, SECURITY } from '../openapi/route-docs.ts';

export interface RateLimitRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  admission: AdmissionDeps;
  directory: Pick<ProjectDirectory, 'byKey'>;
  pool: Pool;
}

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
export function registerRateLimitRoutes(app: FastifyInstance, deps: RateLimitRouteDeps): void {
  // A read of zero events: never refused, consumes nothing, re-reads the project if it changed.
  const reportFor = async (project: ProjectAuth, apiKey?: string) => {
    const admission = await admit(deps.admission, project, apiKey === undefined ? { events: 0, consume: false } : { apiKey, events: 0, consume: false });
    return limitsReport(admission.project, admission.decision.usage, admission.decision.windows);
  };

  app.get<{ Querystring: { project_key?: string } }>(
    '/api/v1/rate_limits',
    {
      onRequest: principalHook(deps.auth),
      config: { openapi: { querystring: { ...querySchema, additionalProperties: false } } },
      schema: {
        querystring: querySchema,
        tags: ['limits'],
        summary: 'Every limit with its usage, read without consuming anything',
        description:
          'A project key gets its project (`data` is one report); a user token gets every project of its account ordered by key (`data` is a list), `?project_key=` narrows it to one.',
        security: SECURITY.projectKeyOrUserToken,
        response: {
          200: {
            description: 'The limits in force and their usage',
            type: 'object',
            additionalProperties: false,
            required: ['data'],
            properties: { data: { oneOf: [{ $ref: rateLimitsReportSchema.$id }, { type: 'array', items: { $ref: rateLimitsReportSchema.$id } }] } },
          },
          ...errors('envelope', [400, 403, 404, ...AUTHENTICATED]),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const requested = request.query.project_key;
      if (principal.kind === 'project') {
        if (requested !== undefined && requested !== principal.project.projectKey) throw notFound('Project');
        return reply.send({ data: await reportFor(principal.project, principal.apiKey) });
      }

      const keys = await readableProjects(principal, deps.pool, requested);
      if (requested !== undefined && keys.length === 0) throw notFound('Project');
      const reports = [];
      for (const key of keys) {
        const project = await deps.directory.byKey(key);
        if (project === undefined || project.deleted) continue;
        // A project deleted meanwhile is left out, like one deleted before.
        const report = await reportFor(project).catch((error: unknown) => {
          if ((error as { code?: unknown }).code === 'project_not_found') return undefined;
          throw error;
        });
        if (report !== undefined) reports.push(report);
      }
      return reply.send({ data: reports });
    },
  );
}
