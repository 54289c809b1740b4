import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BATCH_EVENTS, PulseboardError, type MappingResult } from '@pulseboard/contracts';
import type { ProjectAuth } from '../../auth/project-directory.ts';
import type { IntakeEndpoint } from '../../ingest/accept.ts';
import type { EnvelopeValidator } from '../../ingest/envelope-validator.ts';
import { sendEvents, type EventsToSend, type SendEventsDeps } from '../../ingest/send-events.ts';
import { webhookAccepted } from '../../ingest/webhook-replies.ts';

export interface MappedIntakeDeps {
  send: SendEventsDeps;
  validator: EnvelopeValidator;
}

export interface MappedRequest {
  endpoint: Extract<IntakeEndpoint, 'cloudevents' | 'pagerduty' | 'alertmanager' | 'github'>;
  /** The tool's name, for messages. */
  tool: string;
  project: ProjectAuth;
  apiKey: string | undefined;
  result: MappingResult;
  idempotencyKey?: string | undefined;
  /** The success answer; by default the webhooks batch answer (202 `accepted`, `count`, `events`). */
  answer?: EventsToSend['answer'];
}

/**
 * After an integration's mapping: a payload that can never be accepted is 400
 * (before any limit is looked at, as an oversized batch is), one with nothing
 * to follow is 202 `ignored` (nothing counted), and mapped events go down the
 * webhooks' own path as one batch: validated as envelopes, all or nothing,
 * counting one request and as many events as were mapped.
 */
export function sendMapped(deps: MappedIntakeDeps, request: FastifyRequest, reply: FastifyReply, m: MappedRequest): Promise<FastifyReply> | FastifyReply {
  const { result } = m;
  if (result.kind === 'invalid') throw new PulseboardError('validation_error', { message: `Not a valid ${m.tool} payload`, details: result.details });
  if (result.kind === 'ignored') return reply.code(202).send({ status: 'ignored', message: `Nothing to record: ${result.reason}` });
  if (result.events.length > MAX_BATCH_EVENTS) {
    throw new PulseboardError('validation_error', {
      message: `This ${m.tool} payload maps to ${result.events.length} events; a request holds at most ${MAX_BATCH_EVENTS}`,
      details: { events: [`is too long (maximum is ${MAX_BATCH_EVENTS} events)`] },
    });
  }
  const body = { events: result.events };
  return sendEvents(deps.send, request, reply, {
    endpoint: m.endpoint,
    project: m.project,
    apiKey: m.apiKey,
    events: result.events,
    // Always the full checks: mapped text may not come from the body's JSON (CloudEvents' percent-decoded headers).
    details: deps.validator.webhookBatch(body),
    batch: true,
    idempotencyKey: m.idempotencyKey,
    answer: m.answer ?? ((ids, receivedAt) => webhookAccepted(ids, receivedAt, true)),
  });
}
