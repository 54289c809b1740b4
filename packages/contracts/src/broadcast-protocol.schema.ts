import type { FromSchema } from 'json-schema-to-ts';

/**
 * What a client sends the broadcast service over its WebSocket (documented in
 * services/broadcast/docs/protocol.md). `since` is the last change position
 * the client saw: it gets what it missed, or a snapshot when that is too old.
 */
export const broadcastClientMessageSchema = {
  $id: 'https://pulseboard.dev/schemas/broadcast-client-message.json',
  title: 'BroadcastClientMessage',
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['type', 'token'], properties: { type: { const: 'auth' }, token: { type: 'string', minLength: 1, maxLength: 512 } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'project'],
      properties: { type: { const: 'subscribe' }, project: { type: 'string', minLength: 1, maxLength: 200 }, since: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
    },
    { type: 'object', additionalProperties: false, required: ['type', 'project'], properties: { type: { const: 'unsubscribe' }, project: { type: 'string', minLength: 1, maxLength: 200 } } },
    { type: 'object', additionalProperties: false, required: ['type'], properties: { type: { const: 'ping' } } },
  ],
} as const;

export type BroadcastClientMessage = FromSchema<typeof broadcastClientMessageSchema>;

/** Close codes of the broadcast WebSocket. */
export const BROADCAST_CLOSE = {
  /** A message that is not JSON, not one of the documented messages, or too large. */
  badMessage: 4000,
  /** The credential given is not a valid user token or project key. */
  authFailed: 4001,
  /** No `auth` message within the deadline (and none at the upgrade). */
  authTimeout: 4002,
  /** The credential was regenerated or its user deleted while connected. */
  credentialRevoked: 4003,
  /** The client does not read fast enough: its unsent bytes passed the bound. */
  slowConsumer: 4008,
  /** The server is shutting down; reconnect (to another instance) and resume. */
  goingAway: 1001,
} as const;

const position = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const projectKey = { type: 'string', minLength: 1 } as const;
const message = <P extends Record<string, object>, R extends readonly string[]>(type: string, properties: P, required: R) =>
  ({ type: 'object', additionalProperties: false, required: ['type', ...required], properties: { type: { const: type }, ...properties } }) as const;

/**
 * What the broadcast service sends a client (services/broadcast/docs/protocol.md).
 * A `change` carries the tile-changes topic's TileChange as it came from Kafka.
 */
export const broadcastServerMessageSchema = {
  $id: 'https://pulseboard.dev/schemas/broadcast-server-message.json',
  title: 'BroadcastServerMessage',
  oneOf: [
    message('ready', { kind: { type: 'string', enum: ['user', 'project'] }, projects: { type: 'array', items: { type: 'object', required: ['project_key', 'name'], properties: { project_key: projectKey, name: { type: 'string' } } } } }, ['kind', 'projects']),
    message(
      'snapshot',
      {
        project: projectKey,
        position,
        tiles: {
          type: 'array',
          items: {
            type: 'object',
            required: ['tile_id', 'tile_name', 'status', 'value', 'version', 'last_event_id', 'changed_at'],
            properties: {
              tile_id: { type: 'integer' },
              tile_name: { type: 'string' },
              status: { type: 'string' },
              value: { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }, { type: 'null' }] },
              version: { type: 'integer', minimum: 0 },
              last_event_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
              changed_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
            },
          },
        },
      },
      ['project', 'position', 'tiles'],
    ),
    message('change', { change: { $ref: 'https://pulseboard.dev/schemas/tile-change.json' } }, ['change']),
    message('subscribed', { project: projectKey, position, resumed: { type: 'boolean' } }, ['project', 'position', 'resumed']),
    message('error', { code: { type: 'string', enum: ['project_not_found', 'already_subscribed', 'too_many_subscriptions', 'already_authenticated'] }, message: { type: 'string' }, project: projectKey }, ['code', 'message']),
    message('unsubscribed', { project: projectKey, reason: { const: 'project_deleted' } }, ['project']),
    message('pong', {}, []),
  ],
} as const;
