import type { FastifyInstance } from 'fastify';
import { alertmanagerWebhookSchema, mapAlertmanager } from '@pulseboard/contracts';
import type { Authenticator } from '../../auth/authenticator.ts';
import { senderHook } from '../../auth/sender.ts';
import { sendMapped, type MappedIntakeDeps } from './send-mapped.ts';
import { acceptedResponses } from './responses.ts';
import { SECURITY } from '../../openapi/route-docs.ts';

/**
 * POST /api/v1/integrations/alertmanager: Alertmanager's `webhook_configs`
 * payload, with the project's API key as a Bearer credential
 * (`http_config.authorization`). One event per alert (see mapAlertmanager).
 */
export function registerAlertmanagerRoute(app: FastifyInstance, deps: MappedIntakeDeps & { auth: Pick<Authenticator, 'sender'>; now: () => number }): void {
  app.post(
    '/api/v1/integrations/alertmanager',
    {
      config: { rejectionsEndpoint: 'alertmanager' },
      schema: {
        tags: ['ingest'],
        summary: "Alertmanager's webhook payload, as events",
        security: SECURITY.projectKey,
        body: { $ref: alertmanagerWebhookSchema.$id },
        response: acceptedResponses,
      },
      onRequest: senderHook(deps.auth),
    },
    async (request, reply) =>
      sendMapped(deps, request, reply, {
        endpoint: 'alertmanager',
        tool: 'Alertmanager',
        project: request.project!,
        apiKey: request.apiKey,
        result: mapAlertmanager(request.body, { receivedAt: new Date(deps.now()) }),
      }),
  );
}
