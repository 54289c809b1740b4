import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Logs are JSON lines: a stable snake_case `event` plus context. Anything that
 * could carry a secret is redacted here once, not at each call site.
 */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}

/**
 * Fields that hold credentials wherever they appear at the top level or one
 * level down: API keys and tokens, passwords, a webhook's signing secret, a
 * Slack incoming-webhook URL (the URL is the credential), sealed secrets.
 */
const SECRET_FIELDS = ['api_key', 'token', 'password', 'secret', 'secrets', 'webhook_url', 'authorization'];
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-project-key"]',
  'req.headers.cookie',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];
