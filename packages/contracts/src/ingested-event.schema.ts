import type { FromSchema } from 'json-schema-to-ts';
import { EVENT_TYPES, SEVERITIES } from './event-envelope.schema.ts';

/**
 * What the gateway writes to the events topic and every consumer reads: the
 * envelope plus the identity the gateway gave it. Consumers validate against it,
 * so a foreign producer's junk goes to the dead-letter topic, not into tables.
 */
export const ingestedEventSchema = {
  $id: 'https://pulseboard.dev/schemas/ingested-event.json',
  title: 'IngestedEvent',
  type: 'object',
  required: ['id', 'project_key', 'account_id', 'type', 'name', 'timestamp', 'received_at', 'attributes'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    project_key: { type: 'string', minLength: 1 },
    account_id: { type: 'integer' },
    type: { type: 'string', enum: EVENT_TYPES },
    name: { type: 'string', minLength: 1 },
    timestamp: { type: 'string', format: 'iso-date-time' },
    received_at: { type: 'string', format: 'date-time' },
    attributes: { type: 'object' },
    severity: { type: 'string', enum: SEVERITIES },
    channel: { type: 'string' },
    correlation_id: { type: 'string' },
    source: { type: 'string' },
    labels: { type: 'array', items: { type: 'string' } },
  },
} as const;

export type IngestedEvent = FromSchema<typeof ingestedEventSchema>;
