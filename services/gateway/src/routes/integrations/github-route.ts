import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gitHubPongSchema, gitHubWebhookSchema, mapGitHub } from '@pulseboard/contracts';
import { headerValue } from '../../ingest/idempotent-request.ts';
import type { GitHubSenders } from './github-senders.ts';
import { sendMapped, type MappedIntakeDeps } from './send-mapped.ts';
import { acceptedResponses } from './responses.ts';
import { SECURITY } from '../../openapi/route-docs.ts';

type GitHubRequest = { Querystring: { project_key?: string } };

/**
 * POST /api/v1/integrations/github?project_key=...: a repository's or
 * organisation's webhook (content type application/json), authenticated by
 * its X-Hub-Signature-256 under the project's GitHub secret. `ping` is
 * answered 200; deployment_status and workflow_run become deployment events;
 * anything else is 202 `ignored`. GitHub's delivery id is the Idempotency-Key,
 * so a redelivery is answered as the first delivery was and stores nothing new.
 */
export function registerGitHubRoute(app: FastifyInstance, deps: MappedIntakeDeps & { senders: GitHubSenders; now: () => number }): void {
  const verify = async (request: FastifyRequest<GitHubRequest>) => {
    const projectKey = typeof request.query.project_key === 'string' ? request.query.project_key : undefined;
    request.project = await deps.senders.verified(projectKey, headerValue(request.headers['x-hub-signature-256']), request.bodyText);
  };
  app.post<GitHubRequest>(
    '/api/v1/integrations/github',
    {
      config: { rejectionsEndpoint: 'github', rawBody: true },
      schema: {
        tags: ['ingest'],
        summary: 'GitHub webhooks, as events (authenticated by their X-Hub-Signature-256)',
        security: SECURITY.none,
        querystring: { type: 'object', required: ['project_key'], properties: { project_key: { type: 'string', minLength: 1, maxLength: 100 } } },
        headers: {
          type: 'object',
          required: ['x-github-event', 'x-hub-signature-256'],
          properties: { 'x-github-event': { type: 'string' }, 'x-hub-signature-256': { type: 'string' }, 'x-github-delivery': { type: 'string' } },
        },
        body: { $ref: gitHubWebhookSchema.$id },
        response: {
          ...acceptedResponses,
          200: { description: 'A ping answered', $ref: gitHubPongSchema.$id },
        },
      },
      // The signature covers the body: checked once it is read, before anything in it is looked at.
      preValidation: verify,
    },
    async (request, reply) => {
      const event = headerValue(request.headers['x-github-event']);
      if (event === 'ping')
        return reply.code(200).send({ status: 'ok', message: `pong: project ${request.project!.projectKey} receives this hook's deliveries` });
      const delivery = headerValue(request.headers['x-github-delivery']);
      return sendMapped(deps, request, reply, {
        endpoint: 'github',
        tool: 'GitHub webhook',
        project: request.project!,
        apiKey: undefined,
        result: mapGitHub({ event, delivery, body: request.body }, { receivedAt: new Date(deps.now()) }),
        idempotencyKey: delivery,
      });
    },
  );
}
