import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { integrationSecretSchema, seal, type SecretKeys } from '@pulseboard/contracts';
import { all, AUTHENTICATED, data, errors, noContent, SECURITY } from '../openapi/route-docs.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { accountOf, mayNameProject, principalHook, userTokenRequired } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { findLiveProject } from '../repositories/projects.ts';
import type { ControlFeed } from '../repositories/control-writes.ts';
import { putIntegrationSecretBody, type PutIntegrationSecretBody } from './integration-secret-schemas.ts';
import {
  deleteIntegrationSecret,
  listIntegrationSecrets,
  putIntegrationSecret,
  SIGNED_INTEGRATIONS,
  type IntegrationSecretRecord,
  type SignedIntegration,
} from '../repositories/integration-secrets.ts';

export interface IntegrationSecretRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  controlFeed: ControlFeed;
  /** SECRETS_KEY seals (SECRETS_KEY_PREVIOUS only opens, during a rotation). */
  secretKeys: SecretKeys;
}

const integrationParams = {
  type: 'object',
  required: ['id', 'integration'],
  properties: { id: { type: 'string' }, integration: { type: 'string', enum: SIGNED_INTEGRATIONS } },
} as const;

type WithProject = { Params: { id: string } };
type WithIntegration = { Params: { id: string; integration: SignedIntegration } };

function present(record: IntegrationSecretRecord, shown?: string) {
  return {
    integration: record.integration,
    // The secret itself only in the answer that made it; masked ever after.
    secret: shown ?? '••••',
    ...(shown === undefined ? {} : { secret_shown_once: true }),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

/**
 * The secrets tools sign their deliveries with, per project (today GitHub's
 * webhook secret). A user token sets, lists (masked) and removes them; the
 * secret is sealed with SECRETS_KEY, shown once when the API made it up, and
 * every gateway reads it again on the next delivery (the project's revision).
 */
export function registerIntegrationSecretRoutes(app: FastifyInstance, deps: IntegrationSecretRouteDeps): void {
  app.register(async (api) => {
    api.addSchema(putIntegrationSecretBody);
    api.addHook('onRequest', principalHook(deps.auth));
    const loadProject = async (request: FastifyRequest<WithProject>) => {
      const principal = request.principal!;
      const project = mayNameProject(principal, request.params.id) ? await findLiveProject(deps.pool, accountOf(principal), request.params.id) : undefined;
      if (project === undefined) throw notFound('Project');
      if (principal.kind !== 'user') throw userTokenRequired('Managing integration secrets');
    };

    const tags = ['projects'];
    const security = SECURITY.userToken;
    const refusals = errors('envelope', [403, 404, ...AUTHENTICATED]);
    api.get<WithProject>(
      '/api/v1/projects/:id/integrations',
      {
        preValidation: loadProject,
        schema: {
          tags,
          security,
          summary: "The project's integration secrets (masked)",
          response: { 200: all(integrationSecretSchema, 'Every integration secret the project has'), ...refusals },
        },
      },
      async (request, reply) => {
        const rows = await listIntegrationSecrets(deps.pool, request.params.id);
        return reply.send({ data: rows.map((row) => present(row)) });
      },
    );

    api.put<WithIntegration & { Body: PutIntegrationSecretBody }>(
      '/api/v1/projects/:id/integrations/:integration',
      {
        preValidation: loadProject,
        schema: {
          tags,
          security,
          summary: "Set an integration's secret for the project (made up and shown once when none is given)",
          params: integrationParams,
          body: { $ref: putIntegrationSecretBody.$id },
          response: { 200: data(integrationSecretSchema, 'The secret as set'), ...refusals },
        },
      },
      async (request, reply) => {
        const given = request.body?.secret;
        const secret = given ?? randomBytes(32).toString('hex');
        const record = await putIntegrationSecret(
          deps.pool,
          deps.controlFeed,
          request.params.id,
          request.params.integration,
          seal(secret, deps.secretKeys.current),
        );
        if (record === undefined) throw notFound('Project');
        return reply.send({ data: present(record, given === undefined ? secret : undefined) });
      },
    );

    api.delete<WithIntegration>(
      '/api/v1/projects/:id/integrations/:integration',
      {
        preValidation: loadProject,
        schema: { tags, security, summary: "Remove an integration's secret", params: integrationParams, response: { ...noContent, ...refusals } },
      },
      async (request, reply) => {
        const deleted = await deleteIntegrationSecret(deps.pool, deps.controlFeed, request.params.id, request.params.integration);
        if (!deleted) throw notFound('Integration secret');
        return reply.code(204).send();
      },
    );
  });
}
