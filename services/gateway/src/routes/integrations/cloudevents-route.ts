import type { FastifyInstance } from 'fastify';
import { CLOUDEVENTS_BATCH, CLOUDEVENTS_STRUCTURED, cloudEventBatchSchema, cloudEventSchema, mapCloudEvents } from '@pulseboard/contracts';
import type { Authenticator } from '../../auth/authenticator.ts';
import { senderHook } from '../../auth/sender.ts';
import { registerJsonBodyParser } from '../../json-body.ts';
import { sendMapped, type MappedIntakeDeps } from './send-mapped.ts';
import { acceptedResponses } from './responses.ts';
import { SECURITY } from '../../openapi/route-docs.ts';

function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}

/**
 * POST /api/v1/integrations/cloudevents: CloudEvents 1.0 over HTTP in its
 * three modes (structured, batch, binary with JSON data), with the project's
 * API key as a Bearer credential. Registered in a scope of its own: only here
 * are CloudEvents' media types read as JSON.
 */
export function registerCloudEventsRoute(
  app: FastifyInstance,
  deps: MappedIntakeDeps & { auth: Pick<Authenticator, 'sender'>; now: () => number; maxBodyValues: number },
): void {
  app.register(async (scope) => {
    registerJsonBodyParser(scope, { maxValues: deps.maxBodyValues, contentTypes: [CLOUDEVENTS_STRUCTURED, CLOUDEVENTS_BATCH] });
    scope.post(
      '/api/v1/integrations/cloudevents',
      {
        config: { rejectionsEndpoint: 'cloudevents' },
        schema: {
          tags: ['ingest'],
          summary: 'CloudEvents 1.0 (structured, batch or binary mode), as events',
          security: SECURITY.projectKey,
          body: {
            content: {
              [CLOUDEVENTS_STRUCTURED]: { schema: { $ref: cloudEventSchema.$id } },
              [CLOUDEVENTS_BATCH]: { schema: { $ref: cloudEventBatchSchema.$id } },
              // Binary mode: the body is the event's data, the context attributes are ce-* headers.
              'application/json': { schema: {} },
            },
          },
          response: acceptedResponses,
        },
        onRequest: senderHook(deps.auth),
      },
      async (request, reply) =>
        sendMapped(deps, request, reply, {
          endpoint: 'cloudevents',
          tool: 'CloudEvents',
          project: request.project!,
          apiKey: request.apiKey,
          result: mapCloudEvents(
            { mediaType: mediaType(request.headers['content-type']), headers: request.headers, body: request.body },
            { receivedAt: new Date(deps.now()) },
          ),
        }),
    );
  });
}
