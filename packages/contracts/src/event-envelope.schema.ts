import type { FromSchema } from 'json-schema-to-ts';
import { MAX_JSON_LEVELS } from './validation.ts';

/** Event categories of spec section 6; anything else is `is not included in the list`. */
export const EVENT_TYPES = ['deployment', 'uptime', 'error', 'metric', 'infrastructure'] as const;
export const SEVERITIES = ['info', 'warn', 'error', 'critical'] as const;

/**
 * The event envelope clients send (spec 2.1). The single source for both the ajv
 * check and the TypeScript type. Unknown top-level fields are tolerated and dropped.
 */
export const eventEnvelopeSchema = {
  $id: 'https://pulseboard.dev/schemas/event-envelope.json',
  title: 'EventEnvelope',
  type: 'object',
  required: ['project_key', 'type', 'name', 'timestamp', 'attributes'],
  properties: {
    project_key: { type: 'string', minLength: 1, maxLength: 100, storableText: true },
    type: { type: 'string', enum: EVENT_TYPES },
    name: { type: 'string', minLength: 1, maxLength: 200, storableText: true },
    // Year 0000 is valid ISO 8601 but not a date Postgres (or anyone) can store.
    timestamp: { type: 'string', format: 'iso-date-time', pattern: '^(?!0000-)' },
    // At most 32 levels and finite numbers (CONTRACT Events): `1e400` would be stored as null.
    attributes: { type: 'object', storableText: true, boundedJson: MAX_JSON_LEVELS },
    severity: { type: 'string', enum: SEVERITIES },
    channel: { type: 'string', maxLength: 200, storableText: true },
    correlation_id: { type: 'string', maxLength: 200, storableText: true },
    source: { type: 'string', maxLength: 255, storableText: true },
    labels: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', maxLength: 100, storableText: true },
    },
  },
} as const;

export type EventEnvelope = FromSchema<typeof eventEnvelopeSchema>;
