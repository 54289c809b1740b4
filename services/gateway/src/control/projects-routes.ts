import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { newApiKey } from '@pulseboard/contracts';
import type { LimitDefaults } from '../auth/project-directory.ts';
import { accountOf, mayNameProject, principalHook, userTokenRequired } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import { findLiveProject, listLiveProjects, replaceApiKey, updateProject, type ProjectRecord } from '../repositories/projects.ts';
import type { ControlFeed } from '../repositories/control-writes.ts';
import { presentProject } from './present.ts';
import { recentRefusalsSchema, REFUSAL_MINUTES, type RefusalLog } from '../limits/refusals.ts';
import { findAccountCeilings } from '../repositories/accounts.ts';
import { projectDetailSchema, projectSchema, projectWithKeySchema } from '@pulseboard/contracts';
import type { ProjectFreshness } from '../freshness.ts';
import { AUTHENTICATED, BODY_ERRORS, data, errors, listQuery, page, SECURITY } from '../openapi/route-docs.ts';
import { LIMIT_FIELDS, regenerateKeyBody, updateProjectBody, type RegenerateKeyBody, type UpdateProjectBody } from './project-schemas.ts';

export interface ProjectRouteDeps {
  auth: Pick<Authenticator, 'principal' | 'admit' | 'forget'>;
  pool: Pool;
  controlFeed: ControlFeed;
  refusals: Pick<RefusalLog, 'recent'>;
  freshness: ProjectFreshness;
  limitDefaults: Pick<LimitDefaults, 'burst' | 'projectHourly' | 'retentionDays'>;
  ceilings: Ceilings;
}

declare module 'fastify' {
  interface FastifyRequest {
    targetProject?: ProjectRecord;
  }
}

type WithId = { Params: { id: string } };

const CEILING_FIELDS = [
  ['monthly_quota', 'max_monthly_quota', 'monthlyQuota'],
  ['burst_limit', 'max_burst_limit', 'burst'],
  ['hourly_request_limit', 'max_hourly_request_limit', 'hourly'],
] as const;

/** The environment's ceilings (ACCOUNT_MAX_*), for accounts whose own are unset. */
export interface Ceilings {
  monthlyQuota: number;
  burst: number;
  hourly: number;
}

/**
 * Projects (spec 4.5; CONTRACT.md): `:id` is the project key. A project key
 * sees only its project; a user token its account's. Anything else is 404, so
 * a caller cannot tell a foreign project from a missing one.
 */
export function registerProjectRoutes(app: FastifyInstance, deps: ProjectRouteDeps): void {
  app.register(async (api) => {
    for (const schema of [updateProjectBody, regenerateKeyBody]) api.addSchema(schema);
    api.addHook('onRequest', principalHook(deps.auth));
    const present = (row: ProjectRecord) => presentProject(row, deps.limitDefaults);
    // A user token sets its projects' quota and limits at most to its account's ceilings (the admin API is not bound).
    const checkCeilings = async (accountId: number, body: UpdateProjectBody) => {
      const asked = CEILING_FIELDS.filter(([field]) => typeof body[field] === 'number');
      if (asked.length === 0) return;
      const ceilings = await findAccountCeilings(deps.pool, accountId);
      const details: Record<string, string[]> = {};
      for (const [field, column, fallback] of asked) {
        const max = ceilings?.[column] ?? deps.ceilings[fallback];
        if ((body[field] as number) > max) details[field] = [`must be less than or equal to ${max} (the account's ceiling)`];
      }
      if (Object.keys(details).length > 0) throw new PulseboardError('validation_error', { details });
    };

    // Runs before body validation: a foreign or missing project is 404 whatever the body says.
    const loadProject = async (request: FastifyRequest<WithId>) => {
      const principal = request.principal!;
      const project = mayNameProject(principal, request.params.id) ? await findLiveProject(deps.pool, accountOf(principal), request.params.id) : undefined;
      if (project === undefined) throw notFound('Project');
      request.targetProject = project;
    };

    const projectParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The project key' } } };
    const doc = (summary: string, response: object, security: readonly { [scheme: string]: readonly string[] }[] = SECURITY.projectKeyOrUserToken) => ({
      tags: ['projects'],
      summary,
      security,
      response,
    });
    api.get(
      '/api/v1/projects',
      {
        config: { openapi: { querystring: listQuery() } },
        schema: doc("The credential's projects (a project key: its own)", {
          200: page(projectSchema, 'A page of projects'),
          ...errors('envelope', [400, 404, ...AUTHENTICATED]),
        }),
      },
      async (request, reply) => {
        const paging = parsePage(request.query as Record<string, unknown>);
        if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
        const principal = request.principal!;
        const scope = principal.kind === 'project' ? { projectKey: principal.project.projectKey } : { accountId: principal.accountId };
        const { rows, total } = await listLiveProjects(deps.pool, scope, paging.page);
        return reply.send({ data: rows.map(present), meta: listMeta(paging.page, total) });
      },
    );

    api.get<WithId>(
      '/api/v1/projects/:id',
      {
        preValidation: loadProject,
        config: { openapi: { params: projectParams } },
        schema: {
          ...doc('One project, and how far behind live its tiles are', {
            200: data(projectDetailSchema, 'The project with its `freshness`'),
            ...errors('envelope', [404, ...AUTHENTICATED]),
          }),
          description:
            "`freshness` says how current the project's tiles are: 0 s (`live`) when the rule engine has applied every event the gateway acknowledged on the project's partition, else the seconds since `applied_through` (every event accepted before it is on the tiles); `behind` from 30 s, `far_behind` from 300 s (docs/api.md, Freshness).",
        },
      },
      async (request, reply) => {
        const project = request.targetProject!;
        return reply.send({ data: { ...present(project), freshness: await deps.freshness(project.project_key) } });
      },
    );

    api.get<WithId>(
      '/api/v1/projects/:id/refusals',
      {
        preValidation: loadProject,
        config: { openapi: { params: projectParams } },
        schema: {
          ...doc(`Requests the limits refused (429, 402) in the last ${REFUSAL_MINUTES} minutes`, {
            200: data(recentRefusalsSchema, 'The count, and the latest refusal with the limit that made it'),
            ...errors('envelope', [404, ...AUTHENTICATED]),
          }),
          description:
            'A project whose tiles stand still may have its events refused: this says how many requests were, and which limit refused the latest (counted per minute; up to a second late).',
        },
      },
      async (request, reply) => reply.send({ data: await deps.refusals.recent(request.targetProject!.project_key) }),
    );

    api.put<WithId & { Body: UpdateProjectBody }>(
      '/api/v1/projects/:id',
      {
        preValidation: loadProject,
        config: { openapi: { params: projectParams } },
        schema: {
          body: { $ref: updateProjectBody.$id },
          ...doc('Change name, settings, or (user token only) limits and quota', {
            200: data(projectSchema, 'The project as changed'),
            ...errors('envelope', [...BODY_ERRORS, 403, 404, ...AUTHENTICATED]),
          }),
        },
      },
      async (request, reply) => {
        const body = request.body;
        if (Object.keys(body).length === 0) {
          throw new PulseboardError('validation_error', {
            details: { base: [`must change at least one of ${['name', 'settings', ...LIMIT_FIELDS].join(', ')}`] },
          });
        }
        if (request.principal!.kind === 'project' && LIMIT_FIELDS.some((f) => body[f] !== undefined))
          throw userTokenRequired('Changing limits or the monthly quota');
        await checkCeilings(request.targetProject!.account_id, body);
        const updated = await updateProject(deps.pool, deps.controlFeed, request.params.id, body);
        if (updated === undefined) throw notFound('Project');
        return reply.send({ data: present(updated) });
      },
    );

    api.post<WithId & { Body: RegenerateKeyBody }>(
      '/api/v1/projects/:id/regenerate_key',
      {
        preValidation: loadProject,
        config: { openapi: { params: projectParams } },
        schema: {
          body: { $ref: regenerateKeyBody.$id },
          ...doc(
            'Replace the API key (user token; `{"confirm": true}`); the old key stops working at once',
            {
              200: data(projectWithKeySchema, 'The project with its new key, shown once'),
              ...errors('envelope', [...BODY_ERRORS, 403, 404, ...AUTHENTICATED]),
            },
            SECURITY.userToken,
          ),
        },
      },
      async (request, reply) => {
        const principal = request.principal!;
        if (principal.kind !== 'user') throw userTokenRequired('Regenerating the API key');
        if (request.body.confirm !== true) {
          throw new PulseboardError('validation_error', { details: { confirm: ['must be true: regenerating makes the current key stop working at once'] } });
        }
        const { apiKey, hash, prefix } = newApiKey();
        await deps.auth.admit(hash);
        const replaced = await replaceApiKey(deps.pool, deps.controlFeed, request.params.id, { hash, prefix });
        if (replaced === undefined) throw notFound('Project');
        const { project } = replaced;
        // Once committed, never before: until then the old key is still valid.
        deps.auth.forget(replaced.previousKeyHash);
        request.log.info({ event: 'api_key_regenerated', req_id: request.id, project_key: request.params.id, user_id: principal.userId });
        // The key is shown here once; only its hash is stored.
        return reply.send({ data: { ...present(project), api_key: apiKey } });
      },
    );
  });
}
