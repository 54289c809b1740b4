import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Logs are JSON lines: a stable snake_case `event` plus context. Anything that
 * could carry a secret is redacted here once, not at each call site.
 */
export function createLogger(service: string, level: string): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-project-key"]', 'api_key', 'token', '*.api_key', '*.token', 'password'],
      censor: '[redacted]',
    },
  });
}
