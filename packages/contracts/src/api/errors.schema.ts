import type { FromSchema } from 'json-schema-to-ts';
import { ERROR_CATALOG } from '../error-catalog.ts';

/** The codes a client can read in an answer (internal codes are answered as one of these). */
export const PUBLIC_ERROR_CODES = Object.entries(ERROR_CATALOG)
  .filter(([, entry]) => !('answeredAs' in entry))
  .map(([code]) => code);

/** `details` of spec 7: field name → messages. */
export const validationDetailsSchema = {
  $id: 'https://pulseboard.dev/schemas/validation-details.json',
  title: 'ValidationDetails',
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
} as const;

/** The error shape of every route but /ingest (spec 7): `{error: {code, message, details?}}`. */
export const errorEnvelopeSchema = {
  $id: 'https://pulseboard.dev/schemas/error-envelope.json',
  title: 'ErrorEnvelope',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: PUBLIC_ERROR_CODES },
        message: { type: 'string' },
        details: { $ref: validationDetailsSchema.$id },
      },
    },
  },
} as const;

/**
 * The error shape of /ingest (spec 7): `{status: "error", code, message, details?}`,
 * plus the numbers of a 429 (`rate_limit`, `current_usage`, `retry_after`) or a
 * 402 (`quota_limit`, `quota_used`, `quota_reset_at`).
 */
export const ingestErrorSchema = {
  $id: 'https://pulseboard.dev/schemas/ingest-error.json',
  title: 'IngestError',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'code', 'message'],
  properties: {
    status: { const: 'error' },
    code: { type: 'string', enum: PUBLIC_ERROR_CODES },
    message: { type: 'string' },
    details: { $ref: validationDetailsSchema.$id },
    rate_limit: { type: 'integer', description: '429: the limit of the window that refused' },
    current_usage: { type: 'integer', description: '429: what the window has used' },
    retry_after: { type: 'integer', description: '429: seconds until the window ends (also the Retry-After header)' },
    quota_limit: { type: 'integer', description: '402: the monthly quota' },
    quota_used: { type: 'integer', description: '402: events counted this month' },
    quota_reset_at: { type: 'string', format: 'date-time', description: '402: when the quota starts again (UTC month start)' },
  },
} as const;

export type ErrorEnvelope = FromSchema<typeof errorEnvelopeSchema, { references: [typeof validationDetailsSchema] }>;
export type IngestError = FromSchema<typeof ingestErrorSchema, { references: [typeof validationDetailsSchema] }>;
