import type { FromSchema } from 'json-schema-to-ts';
import { eventEnvelopeSchema } from './event-envelope.schema.ts';

/** Spec 8: a batch holds at most 100 events. */
export const MAX_BATCH_EVENTS = 100;

/**
 * One event sent to POST /api/v1/webhooks (spec 4.2): the envelope of spec 2.1,
 * except that `project_key` may be left out, since the project can also come
 * from the `X-Project-Key` header. When present it must name that project.
 */
export const webhookEventSchema = {
  $id: 'https://pulseboard.dev/schemas/webhook-event.json',
  title: 'WebhookEvent',
  type: 'object',
  required: ['type', 'name', 'timestamp', 'attributes'],
  properties: eventEnvelopeSchema.properties,
} as const;

/** A batch for POST /api/v1/webhooks: `{"events": [...]}`, 1 to 100 events, validated all or nothing. */
export const webhookBatchSchema = {
  $id: 'https://pulseboard.dev/schemas/webhook-batch.json',
  title: 'WebhookBatch',
  type: 'object',
  required: ['events'],
  properties: {
    project_key: eventEnvelopeSchema.properties.project_key,
    events: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_EVENTS,
      items: { $ref: 'https://pulseboard.dev/schemas/webhook-event.json' },
    },
  },
} as const;

export type WebhookEvent = FromSchema<typeof webhookEventSchema>;
export type WebhookBatch = FromSchema<typeof webhookBatchSchema, { references: [typeof webhookEventSchema] }>;
