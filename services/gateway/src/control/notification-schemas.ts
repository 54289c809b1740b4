import type { FromSchema } from 'json-schema-to-ts';
import { MAX_NOTIFICATION_CONFIG_BYTES, NOTIFICATION_TYPES } from '@pulseboard/contracts';

/** Request bodies of the notifications API; `config` is checked per type against contracts' config schemas. */
export const createNotificationBody = {
  $id: 'https://pulseboard.dev/schemas/create-notification.json',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'config'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    type: { type: 'string', enum: NOTIFICATION_TYPES },
    config: {
      type: 'object',
      maxProperties: 10,
      maxJsonBytes: MAX_NOTIFICATION_CONFIG_BYTES,
      description: `Per type: webhook \`{url, secret?}\`, slack \`{webhook_url}\`, email \`{to: [...]}\`; at most ${MAX_NOTIFICATION_CONFIG_BYTES} bytes serialised as JSON (400 validation_error beyond)`,
    },
  },
} as const;

export const updateNotificationBody = {
  $id: 'https://pulseboard.dev/schemas/update-notification.json',
  type: 'object',
  additionalProperties: false,
  properties: createNotificationBody.properties,
} as const;

export const sendMessageBody = {
  $id: 'https://pulseboard.dev/schemas/send-message.json',
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'body'],
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 200 },
    body: { type: 'string', minLength: 1, maxLength: 10000 },
  },
} as const;

export type CreateNotificationBody = FromSchema<typeof createNotificationBody>;
export type UpdateNotificationBody = FromSchema<typeof updateNotificationBody>;
export type SendMessageBody = FromSchema<typeof sendMessageBody>;
