import type { FromSchema } from 'json-schema-to-ts';

export const NOTIFICATION_TYPES = ['webhook', 'slack', 'email'] as const;

const httpUrl = { type: 'string', minLength: 8, maxLength: 2000, pattern: '^https?://[^\\s]+$' } as const;

/** Standard Webhooks secret: `whsec_` + base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,88}={0,2}$';

export const webhookConfigSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-config-webhook.json',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: { url: httpUrl, secret: { type: 'string', pattern: WEBHOOK_SECRET_PATTERN } },
} as const;

export const slackConfigSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-config-slack.json',
  type: 'object',
  additionalProperties: false,
  required: ['webhook_url'],
  properties: { webhook_url: httpUrl },
} as const;

export const emailConfigSchema = {
  $id: 'https://pulseboard.dev/schemas/notification-config-email.json',
  type: 'object',
  additionalProperties: false,
  required: ['to'],
  properties: { to: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { type: 'string', format: 'email', maxLength: 254 } } },
} as const;

/** Which config fields are secrets: stored sealed, never returned or logged in clear. */
// Sealed at rest and masked in answers: a webhook's URL often carries a token in its path or query.
export const SECRET_CONFIG_FIELDS = { webhook: ['url', 'secret'], slack: ['webhook_url'], email: [] } as const satisfies Record<
  (typeof NOTIFICATION_TYPES)[number],
  readonly string[]
>;

export type WebhookConfig = FromSchema<typeof webhookConfigSchema>;
export type SlackConfig = FromSchema<typeof slackConfigSchema>;
export type EmailConfig = FromSchema<typeof emailConfigSchema>;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
