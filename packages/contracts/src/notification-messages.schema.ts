import type { FromSchema } from 'json-schema-to-ts';

/** A message to send through a notification service, as the gateway asks for it (notification-requests topic). */
export const notificationRequestSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-request.json',
  title: 'NotificationRequest',
  type: 'object',
  additionalProperties: false,
  required: ['request_id', 'service_id', 'account_id', 'subject', 'body', 'test'],
  properties: {
    request_id: { type: 'string', pattern: '^msg_' },
    service_id: { type: 'integer', minimum: 1 },
    account_id: { type: 'integer', minimum: 1 },
    subject: { type: 'string' },
    body: { type: 'string' },
    test: { type: 'boolean' },
  },
} as const;

/** What became of a delivery (notification-outcomes topic): final, or pending with retries scheduled. */
export const notificationOutcomeSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-outcome.json',
  title: 'NotificationOutcome',
  type: 'object',
  additionalProperties: false,
  required: ['request_id', 'delivery_id', 'status', 'attempts', 'response_status'],
  properties: {
    request_id: { type: 'string' },
    delivery_id: { type: 'string' },
    status: { type: 'string', enum: ['delivered', 'failed', 'pending'] },
    attempts: { type: 'integer', minimum: 0 },
    response_status: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
  },
} as const;

/** A delivery that failed for good (notifications dead-letter topic): what was sent, how often, the last error. */
export const notificationDeadLetterSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-dead-letter.json',
  title: 'NotificationDeadLetter',
  type: 'object',
  additionalProperties: false,
  required: ['delivery_id', 'service_id', 'kind', 'payload', 'attempts', 'last_error', 'created_at'],
  properties: {
    delivery_id: { type: 'string' },
    service_id: { type: 'integer' },
    kind: { type: 'string', enum: ['transition', 'message', 'test'] },
    payload: { type: 'object' },
    attempts: { type: 'integer', minimum: 1 },
    last_error: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

export type NotificationRequest = FromSchema<typeof notificationRequestSchema>;
export type NotificationOutcome = FromSchema<typeof notificationOutcomeSchema>;
export type NotificationDeadLetter = FromSchema<typeof notificationDeadLetterSchema>;
