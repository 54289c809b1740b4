import { randomBytes, randomUUID } from 'node:crypto';
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
  unseal,
  webhookConfigSchema,
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
  listDeliveries,
  listNotificationServices,
  updateNotificationService,
  type NotificationServiceRecord,
} from '../repositories/notifications.ts';
import type { AwaitedReplies } from '../ingest/awaited-replies.ts';
import { createNotificationBody, sendMessageBody, updateNotificationBody, type CreateNotificationBody, type SendMessageBody, type UpdateNotificationBody } from './notification-schemas.ts';

export interface NotificationRouteDeps {
  auth: Pick<Authenticator, 'principal'>;
  pool: Pool;
  secretsKey: string;
  /** Hands a send request to the notification service over Kafka. */
  requestSend: (request: NotificationRequest) => Promise<void>;
  outcomes: AwaitedReplies<NotificationOutcome>;
  sendTimeoutMs: number;
}

type WithId = { Params: { id: string } };

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

/** A service as the API shows it: secrets masked (CONTRACT Notifications). */
function present(row: NotificationServiceRecord, key: string, revealed?: Record<string, unknown>) {
  const secrets = row.secrets === null ? {} : (JSON.parse(unseal(row.secrets, key)) as Record<string, string>);
  const masked = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, maskSecret(value)]));
  return { id: row.id, name: row.name, type: row.kind, config: { ...row.config, ...masked, ...revealed }, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

function checkConfig(type: NotificationType, config: unknown): Record<string, unknown> {
  const details = configValidators[type](config, 'config.');
  if (details !== null) throw new PulseboardError('validation_error', { details });
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

    api.get('/api/v1/notifications', async (request, reply) => {
      const paging = parsePage(request.query as Record<string, unknown>);
      if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
      const { rows, total } = await listNotificationServices(deps.pool, accountOf(request), paging.page);
      return reply.send({ data: rows.map((r) => present(r, deps.secretsKey)), meta: listMeta(paging.page, total) });
    });

    api.post<{ Body: CreateNotificationBody }>('/api/v1/notifications', { schema: { body: { $ref: createNotificationBody.$id } } }, async (request, reply) => {
      const { name, type } = request.body;
      const config = { ...checkConfig(type, request.body.config) };
      // A webhook without a secret gets one, shown once: here.
      const generated = type === 'webhook' && config.secret === undefined ? { secret: `whsec_${randomBytes(32).toString('base64')}` } : undefined;
      Object.assign(config, generated);
      const row = await insertNotificationService(deps.pool, accountOf(request), { name, kind: type, ...splitConfig(type, config, deps.secretsKey) });
      return reply.code(201).send({ data: present(row, deps.secretsKey, generated) });
    });

    api.put<WithId & { Body: UpdateNotificationBody }>('/api/v1/notifications/:id', { preValidation: loadService, schema: { body: { $ref: updateNotificationBody.$id } } }, async (request, reply) => {
      const current = request.targetService!;
      if (Object.keys(request.body).length === 0) throw new PulseboardError('validation_error', { details: { base: ['must change at least one of name, type, config'] } });
      const type = request.body.type ?? current.kind;
      if (type !== current.kind && request.body.config === undefined) throw new PulseboardError('validation_error', { details: { config: ["can't be blank when the type changes"] } });
      let split = { config: current.config, secrets: current.secrets };
      if (request.body.config !== undefined) {
        const config = { ...checkConfig(type, request.body.config) };
        // A webhook's secret is kept when the update does not name a new one.
        if (type === 'webhook' && config.secret === undefined && current.kind === 'webhook' && current.secrets !== null) Object.assign(config, JSON.parse(unseal(current.secrets, deps.secretsKey)));
        if (type === 'webhook' && config.secret === undefined) throw new PulseboardError('validation_error', { details: { 'config.secret': ["can't be blank"] } });
        split = splitConfig(type, config, deps.secretsKey);
      }
      const row = await updateNotificationService(deps.pool, accountOf(request), current.id, { name: request.body.name ?? current.name, kind: type, ...split });
      if (row === undefined) throw notFound('Notification service');
      return reply.send({ data: present(row, deps.secretsKey) });
    });

    api.delete<WithId>('/api/v1/notifications/:id', { preValidation: loadService }, async (request, reply) => {
      if (!(await deleteNotificationService(deps.pool, accountOf(request), request.targetService!.id))) throw notFound('Notification service');
      return reply.code(204).send();
    });

    const send = async (request: FastifyRequest<WithId>, message: { subject: string; body: string }, test: boolean) => {
      const requestId = `msg_${randomUUID()}`;
      const watch = deps.outcomes.watch(requestId);
      await deps.requestSend({ request_id: requestId, service_id: request.targetService!.id, account_id: accountOf(request), subject: message.subject, body: message.body, test });
      const outcome = await watch.result(deps.sendTimeoutMs);
      const { request_id: _, ...shown } = outcome ?? { request_id: requestId, delivery_id: requestId, status: 'pending' as const, attempts: 0, response_status: null };
      return { data: shown };
    };
    api.post<WithId & { Body: SendMessageBody }>('/api/v1/notifications/:id/send_message', { preValidation: loadService, schema: { body: { $ref: sendMessageBody.$id } } }, async (request) => send(request, request.body, false));
    api.post<WithId>('/api/v1/notifications/:id/send', { preValidation: loadService }, async (request) => send(request, TEST_MESSAGE, true));

    api.get<WithId>('/api/v1/notifications/:id/deliveries', { preValidation: loadService }, async (request, reply) => {
      const paging = parsePage(request.query as Record<string, unknown>);
      if (!paging.ok) throw new PulseboardError('validation_error', { message: 'Invalid query parameters', details: paging.details });
      const { rows, total } = await listDeliveries(deps.pool, request.targetService!.id, paging.page);
      const data = rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), delivered_at: r.delivered_at?.toISOString() ?? null }));
      return reply.send({ data, meta: listMeta(paging.page, total) });
    });
  });
}
