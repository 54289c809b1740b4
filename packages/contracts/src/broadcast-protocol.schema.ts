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
