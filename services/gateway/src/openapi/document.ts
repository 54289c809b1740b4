import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { NO_TRACING } from '@pulseboard/config';
import type { GatewayDeps } from '../deps.ts';
import { loadGatewayEnv } from '../env.ts';
import { createGatewayMetrics } from '../metrics.ts';
import { buildApp } from '../app.ts';

/** Nothing a route registration touches: the handlers, which would, never run here. */
const inert = new Proxy({}, { get: () => () => undefined }) as never;

/**
 * The gateway's OpenAPI document, generated from its routes without starting
 * anything (no Kafka, Postgres or Redis): the app is built with inert
 * dependencies, made ready, and asked for its document. docs/openapi.json is
 * this, written by `pnpm openapi:write`.
 */
export async function generateOpenApiDocument(): Promise<object> {
  const secret = randomBytes(32).toString('base64url');
  const env = loadGatewayEnv({ ADMIN_TOKEN: secret, SECRETS_KEY: secret });
  const deps: GatewayDeps = {
    env,
    logger: pino({ level: 'silent' }),
    pool: inert,
    redis: inert,
    limitDefaults: { burst: 0, projectHourly: 0, accountHourly: 0, globalHourly: 0, retentionDays: 0 },
    directory: inert,
    auth: inert,
    throttle: inert,
    credentials: inert,
    limiter: inert,
    pipeline: inert,
    validator: inert,
    metrics: createGatewayMetrics(),
    idempotency: inert,
    controlFeed: inert,
    ruleOutcomes: inert,
    requestNotification: inert,
    notificationOutcomes: inert,
    projectFreshness: inert,
    kafkaReady: () => false,
    tracing: NO_TRACING,
    now: Date.now,
  };
  const app = await buildApp(deps);
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

/** The document as committed: 2-space JSON and a final newline (diffs stay readable). */
export function serialiseOpenApi(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
