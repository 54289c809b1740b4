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
export const SECRET_CONFIG_FIELDS = { webhook: ['secret'], slack: ['webhook_url'], email: [] } as const satisfies Record<(typeof NOTIFICATION_TYPES)[number], readonly string[]>;

export type WebhookConfig = FromSchema<typeof webhookConfigSchema>;
export type SlackConfig = FromSchema<typeof slackConfigSchema>;
export type EmailConfig = FromSchema<typeof emailConfigSchema>;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A message to send through a notification service, as the gateway asks for it (notification-requests topic). */
export interface NotificationRequest {
  request_id: string;
  service_id: number;
  account_id: number;
  subject: string;
  body: string;
  test: boolean;
}

/** What became of a delivery (notification-outcomes topic): final, or pending with retries scheduled. */
export interface NotificationOutcome {
  request_id: string;
  delivery_id: string;
  status: 'delivered' | 'failed' | 'pending';
  attempts: number;
  response_status: number | null;
}
