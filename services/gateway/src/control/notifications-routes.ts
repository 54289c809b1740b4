import { randomBytes, randomUUID } from 'node:crypto';
import type { FixedWindowCounter } from '../limits/fixed-window.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import {
  PulseboardError,
  SECRET_CONFIG_FIELDS,
  createAjv,
  detailsValidator,
  emailConfigSchema,
  maskSecret,
  seal,
  slackConfigSchema,
  targetUrlProblem,
  unsealWith,
  webhookConfigSchema,
  type SecretKeys,
  type TargetPolicy,
  type NotificationOutcome,
  type NotificationRequest,
  type NotificationType,
} from '@pulseboard/contracts';
import type { Authenticator } from '../auth/authenticator.ts';
import { principalHook, userTokenRequired } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { parseNumericId } from '../params/ids.ts';
import { listMeta, parsePage } from '../params/pagination.ts';
import {
  deleteNotificationService,
  findNotificationService,
  insertNotificationService,
  listNotificationServices,
  updateNotificationService,
  type NotificationServiceRecord,
} from '../repositories/notifications.ts';
import { listDeliveries } from '@pulseboard/delivery-log';
import { sendAndAwaitReply, type ReplyWaiter } from '../ingest/reply-waiter.ts';
import type { ControlFeed } from '../repositories/control-writes.ts';
import { deliverySchema, notificationServiceSchema, sendOutcomeSchema } from '@pulseboard/contracts';
import { AUTHENTICATED, BODY_ERRORS, data, errors, idParams, listQuery, noContent, page, SECURITY } from '../openapi/route-docs.ts';
import {
  createNotificationBody,
  sendMessageBody,
  updateNotificationBody,
  type CreateNotificationBody,
  type SendMessageBody,
  type UpdateNotificationBody,
} from './notification-schemas.ts';

export interface NotificationRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  /** SECRETS_KEY seals; SECRETS_KEY_PREVIOUS still opens during a rotation. */
  secretKeys: SecretKeys;
  /** Which literal target addresses besides global unicast ones are accepted (NOTIFY_ALLOW_TARGETS, NOTIFY_ALLOW_PRIVATE). */
  targetPolicy: TargetPolicy;
  /** Hands a send request to the notification service over Kafka. */
  requestSend: (request: NotificationRequest) => Promise<void>;
  outcomes: ReplyWaiter<string, NotificationOutcome>;
  sendTimeoutMs: number;
  /** Counts send and send_message per account (one-minute windows in Redis). */
  sends: Pick<FixedWindowCounter, 'hit'>;
  sendsPerMinute: number;
  /** MAX_NOTIFICATION_SERVICES_PER_ACCOUNT. */
  maxServicesPerAccount: number;
  /** Deleting a service changes the tiles that named it: their projects' revisions and control messages. */
  controlFeed: ControlFeed;
}

type WithId = { Params: { id: string } };

const doc = (summary: string, response: object) => ({ tags: ['notifications'], summary, security: SECURITY.userToken, response });
// A project key is 403 user_token_required.
const READ_ERRORS = [403, 404, ...AUTHENTICATED];
const sendDoc = (summary: string) =>
  doc(`${summary}; answers with the outcome, waited for up to NOTIFY_SEND_TIMEOUT_MS (then \`pending\`)`, {
    200: data(sendOutcomeSchema, 'What became of the delivery'),
    ...errors('envelope', [...BODY_ERRORS, ...READ_ERRORS]),
  });

declare module 'fastify' {
  interface FastifyRequest {
    targetService?: NotificationServiceRecord;
  }
}

const ajv = createAjv();
const configValidators: Record<NotificationType, ReturnType<typeof detailsValidator>> = {
  webhook: detailsValidator(ajv, webhookConfigSchema),
  slack: detailsValidator(ajv, slackConfigSchema),
  email: detailsValidator(ajv, emailConfigSchema),
};

/** Splits a validated config into what is shown and what is sealed. */
function splitConfig(type: NotificationType, config: Record<string, unknown>, key: string): { config: Record<string, unknown>; secrets: string | null } {
  const fields: readonly string[] = SECRET_CONFIG_FIELDS[type];
  const open: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) (fields.includes(name) ? secret : open)[name] = value;
  return { config: open, secrets: Object.keys(secret).length === 0 ? null : seal(JSON.stringify(secret), key) };
}

function openSecrets(row: Pick<NotificationServiceRecord, 'secrets'>, keys: SecretKeys): Record<string, string> {
  return row.secrets === null ? {} : (JSON.parse(unsealWith(row.secrets, keys).plain) as Record<string, string>);
}

/**
 * A service as the API shows it: secrets masked (CONTRACT Notifications), also
 * a secret field a row written before it was sealed still keeps in `config`
 * (`pnpm secrets:rotate` seals those).
 */
function present(row: NotificationServiceRecord, keys: SecretKeys, revealed?: Record<string, unknown>) {
  const fields: readonly string[] = SECRET_CONFIG_FIELDS[row.kind];
  const secrets = { ...Object.fromEntries(Object.entries(row.config).filter(([name]) => fields.includes(name))), ...openSecrets(row, keys) };
  const masked = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, maskSecret(String(value))]));
  return {
    id: row.id,
    name: row.name,
    type: row.kind,
    config: { ...row.config, ...masked, ...revealed },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

// The fields that name where a delivery goes.
const TARGET_FIELDS: Record<NotificationType, string | undefined> = { webhook: 'url', slack: 'webhook_url', email: undefined };

/**
 * Checks a config against its type's schema, then its target URL as far as it
 * can be without DNS (an IP literal must be global unicast unless allowed);
 * names are checked at every connection by the notification service.
 */
function checkConfig(type: NotificationType, config: unknown, policy: TargetPolicy): Record<string, unknown> {
  const details = configValidators[type](config, 'config.');
  if (details !== null) throw new PulseboardError('validation_error', { details });
  const field = TARGET_FIELDS[type];
  const target = field === undefined ? undefined : (config as Record<string, unknown>)[field];
  const problem = typeof target === 'string' ? targetUrlProblem(target, policy) : undefined;
  if (problem !== undefined) throw new PulseboardError('validation_error', { details: { [`config.${field}`]: [problem] } });
  return config as Record<string, unknown>;
}

const TEST_MESSAGE = { subject: 'Pulseboard test notification', body: 'This is a test notification from Pulseboard: this notification service works.' };

/**
 * Notification services of an account (spec 2.4, 4.3, 5.7; CONTRACT
 * Notifications), with a user token only. Messages go to the notification
 * service over Kafka; the answer waits for its outcome, bounded.
 */
export function registerNotificationRoutes(app: FastifyInstance, deps: NotificationRouteDeps): void {
  app.register(async (api) => {
    for (const schema of [createNotificationBody, updateNotificationBody, sendMessageBody]) api.addSchema(schema);
    api.addHook('onRequest', principalHook(deps.auth));
    api.addHook('onRequest', async (request) => {
      if (request.principal!.kind !== 'user') throw userTokenRequired('Notifications');
    });
    const accountOf = (request: FastifyRequest) => (request.principal as { accountId: number }).accountId;
    const loadService = async (request: FastifyRequest<WithId>) => {
      const id = parseNumericId(request.params.id);
      const service = id === undefined ? undefined : await findNotificationService(deps.pool, accountOf(request), id);
      if (service === undefined) throw notFound('Notification service');
      request.targetService = service;
    };

    const withId = { preValidation: loadService, config: { openapi: { params: idParams } } };
    api.get(
      '/api/v1/notifications',
      {
        config: { openapi: { querystring: listQuery() } },
        schema: doc("The account's notification services (secrets masked)", {
          200: page(notificationServiceSchema, 'A page of services'),
          ...errors('envelope', [400, ...READ_ERRORS]),
        }),
      },
      async (request, reply) => {
        const paging = parsePage(request.query as Record<string, unknown>);
        if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
        const { rows, total } = await listNotificationServices(deps.pool, accountOf(request), paging.page);
        return reply.send({ data: rows.map((r) => present(r, deps.secretKeys)), meta: listMeta(paging.page, total) });
      },
    );

    api.post<{ Body: CreateNotificationBody }>(
      '/api/v1/notifications',
      {
        schema: {
          body: { $ref: createNotificationBody.$id },
          ...doc('Create a notification service (a webhook without a secret gets one, shown once)', {
            201: data(notificationServiceSchema, 'The service'),
            ...errors('envelope', [...BODY_ERRORS, ...READ_ERRORS]),
          }),
        },
      },
      async (request, reply) => {
        const { name, type } = request.body;
        const config = { ...checkConfig(type, request.body.config, deps.targetPolicy) };
        // A webhook without a secret gets one, shown once: here.
        const generated = type === 'webhook' && config.secret === undefined ? { secret: `whsec_${randomBytes(32).toString('base64')}` } : undefined;
        Object.assign(config, generated);
        const row = await insertNotificationService(
          deps.pool,
          accountOf(request),
          { name, kind: type, ...splitConfig(type, config, deps.secretKeys.current) },
          deps.maxServicesPerAccount,
        );
        if (row === 'full')
          throw new PulseboardError('resource_limit_reached', {
            message: `An account has at most ${deps.maxServicesPerAccount} notification services (MAX_NOTIFICATION_SERVICES_PER_ACCOUNT); delete one first`,
          });
        return reply.code(201).send({ data: present(row, deps.secretKeys, generated) });
      },
    );

    api.put<WithId & { Body: UpdateNotificationBody }>(
      '/api/v1/notifications/:id',
      {
        ...withId,
        schema: {
          body: { $ref: updateNotificationBody.$id },
          ...doc('Change a notification service (a webhook keeps its secret unless given one)', {
            200: data(notificationServiceSchema, 'The service as changed'),
            ...errors('envelope', [...BODY_ERRORS, ...READ_ERRORS]),
          }),
        },
      },
      async (request, reply) => {
        const current = request.targetService!;
        if (Object.keys(request.body).length === 0)
          throw new PulseboardError('validation_error', { details: { base: ['must change at least one of name, type, config'] } });
        const type = request.body.type ?? current.kind;
        if (type !== current.kind && request.body.config === undefined)
          throw new PulseboardError('validation_error', { details: { config: ["can't be blank when the type changes"] } });
        let split = { config: current.config, secrets: current.secrets };
        if (request.body.config !== undefined) {
          const config = { ...checkConfig(type, request.body.config, deps.targetPolicy) };
          // A webhook's secret is kept when the update does not name a new one.
          if (type === 'webhook' && config.secret === undefined && current.kind === 'webhook') {
            const kept = openSecrets(current, deps.secretKeys).secret;
            if (kept !== undefined) config.secret = kept;
          }
          if (type === 'webhook' && config.secret === undefined)
            throw new PulseboardError('validation_error', { details: { 'config.secret': ["can't be blank"] } });
          split = splitConfig(type, config, deps.secretKeys.current);
        }
        const row = await updateNotificationService(deps.pool, accountOf(request), current.id, {
          name: request.body.name ?? current.name,
          kind: type,
          ...split,
        });
        if (row === undefined) throw notFound('Notification service');
        return reply.send({ data: present(row, deps.secretKeys) });
      },
    );

    api.delete<WithId>(
      '/api/v1/notifications/:id',
      { ...withId, schema: doc('Delete a notification service', { ...noContent, ...errors('envelope', READ_ERRORS) }) },
      async (request, reply) => {
        if (!(await deleteNotificationService(deps.pool, deps.controlFeed, accountOf(request), request.targetService!.id)))
          throw notFound('Notification service');
        return reply.code(204).send();
      },
    );

    const send = async (request: FastifyRequest<WithId>, message: { subject: string; body: string }, test: boolean) => {
      // Each send is a delivery to a third party: NOTIFY_SENDS_PER_MINUTE per account (docs/read-api.md).
      const sent = await deps.sends.hit(String(accountOf(request)));
      if (sent.count > deps.sendsPerMinute) {
        throw new PulseboardError('rate_limit_exceeded', {
          message: `At most ${deps.sendsPerMinute} sends a minute per account; retry after ${sent.retryAfter} s`,
          headers: { 'retry-after': sent.retryAfter },
        });
      }
      const requestId = `msg_${randomUUID()}`;
      // Watched before the send; a failed send leaves no waiter behind (sendAndAwaitReply).
      const outcome = await sendAndAwaitReply(
        deps.outcomes,
        requestId,
        () =>
          deps.requestSend({
            request_id: requestId,
            service_id: request.targetService!.id,
            account_id: accountOf(request),
            subject: message.subject,
            body: message.body,
            test,
          }),
        deps.sendTimeoutMs,
      );
      const { request_id: _, ...shown } = outcome ?? {
        request_id: requestId,
        delivery_id: requestId,
        status: 'pending' as const,
        attempts: 0,
        response_status: null,
      };
      return { data: shown };
    };
    api.post<WithId & { Body: SendMessageBody }>(
      '/api/v1/notifications/:id/send_message',
      { ...withId, schema: { body: { $ref: sendMessageBody.$id }, ...sendDoc('Send a message through the service') } },
      async (request) => send(request, request.body, false),
    );
    api.post<WithId>('/api/v1/notifications/:id/send', { ...withId, schema: sendDoc('Send a test message through the service') }, async (request) =>
      send(request, TEST_MESSAGE, true),
    );

    api.get<WithId>(
      '/api/v1/notifications/:id/deliveries',
      {
        ...withId,
        config: { openapi: { params: idParams, querystring: listQuery() } },
        schema: doc("The service's deliveries, newest first", {
          200: page(deliverySchema, 'A page of deliveries'),
          ...errors('envelope', [400, ...READ_ERRORS]),
        }),
      },
      async (request, reply) => {
        const paging = parsePage(request.query as Record<string, unknown>);
        if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
        const { rows, total } = await listDeliveries(deps.pool, request.targetService!.id, paging.page);
        const data = rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), delivered_at: r.delivered_at?.toISOString() ?? null }));
        return reply.send({ data, meta: listMeta(paging.page, total) });
      },
    );
  });
}
