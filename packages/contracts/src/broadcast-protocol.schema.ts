import type { FromSchema } from 'json-schema-to-ts';
import { EVENT_TYPES, SEVERITIES } from './event-envelope.schema.ts';

/**
 * The filters of a live event tail: those of `GET /api/v1/events` (equality on
 * type, name, severity, channel; every `label` given must be on the event).
 */
export const tailFiltersSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: EVENT_TYPES },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    severity: { type: 'string', enum: SEVERITIES },
    channel: { type: 'string', minLength: 1, maxLength: 200 },
    label: { type: 'array', minItems: 1, maxItems: 10, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } },
  },
} as const;
export type TailFilters = FromSchema<typeof tailFiltersSchema>;

/**
 * What a client sends the broadcast service over its WebSocket (documented in
 * services/broadcast/docs/protocol.md). `since` is the last change position
 * the client saw: it gets what it missed, or a snapshot when that is too old.
 */
export const broadcastClientMessageSchema = {
  $id: 'https://pulseboard.dev/schemas/broadcast-client-message.json',
  title: 'BroadcastClientMessage',
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'token'],
      properties: { type: { const: 'auth' }, token: { type: 'string', minLength: 1, maxLength: 512 } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'project'],
      properties: {
        type: { const: 'subscribe' },
        project: { type: 'string', minLength: 1, maxLength: 200 },
        since: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'project'],
      properties: { type: { const: 'unsubscribe' }, project: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    { type: 'object', additionalProperties: false, required: ['type'], properties: { type: { const: 'ping' } } },
    // Versioned (v: 1): a change of its meaning gets a new v, and a server refuses a v it does not know (4000).
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'v', 'project'],
      properties: { type: { const: 'tail' }, v: { const: 1 }, project: { type: 'string', minLength: 1, maxLength: 200 }, filters: tailFiltersSchema },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'project'],
      properties: { type: { const: 'untail' }, project: { type: 'string', minLength: 1, maxLength: 200 } },
    },
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
/** What a dashboard shows of a tile (no state): the tile_added/tile_updated message's `tile`, and the snapshot's extra fields. */
const tileDefinition = {
  type: 'object',
  additionalProperties: false,
  required: ['tile_id', 'tile_name', 'kind', 'position', 'rule', 'settings'],
  properties: {
    tile_id: { type: 'integer', minimum: 1 },
    tile_name: { type: 'string' },
    kind: { type: 'string' },
    position: { type: 'integer', minimum: 0 },
    rule: { type: 'object', description: 'the tile rule as stored (https://pulseboard.dev/schemas/tile-rule.json)' },
    settings: { type: 'object' },
  },
} as const;
const TILE_FIELDS = ['name', 'kind', 'position', 'rule', 'settings'] as const;
const revision = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const v1 = { const: 1 } as const;

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
    message(
      'ready',
      {
        kind: { type: 'string', enum: ['user', 'project'] },
        projects: {
          type: 'array',
          items: { type: 'object', required: ['project_key', 'name'], properties: { project_key: projectKey, name: { type: 'string' } } },
        },
      },
      ['kind', 'projects'],
    ),
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
              kind: { type: 'string' },
              // The tile's place in dashboard order (not a change position).
              tile_position: { type: 'integer', minimum: 0 },
              rule: { type: 'object', description: 'the tile rule as stored (https://pulseboard.dev/schemas/tile-rule.json)' },
              settings: { type: 'object' },
            },
          },
        },
      },
      ['project', 'position', 'tiles'],
    ),
    message('change', { change: { $ref: 'https://pulseboard.dev/schemas/tile-change.json' } }, ['change']),
    message('subscribed', { project: projectKey, position, resumed: { type: 'boolean' } }, ['project', 'position', 'resumed']),
    message(
      'error',
      {
        code: {
          type: 'string',
          enum: ['project_not_found', 'already_subscribed', 'too_many_subscriptions', 'already_authenticated', 'already_tailing', 'not_tailing'],
        },
        message: { type: 'string' },
        project: projectKey,
      },
      ['code', 'message'],
    ),
    message('unsubscribed', { project: projectKey, reason: { const: 'project_deleted' } }, ['project']),
    message('pong', {}, []),
    // Tile definitions (issue 23): a tile added, updated or removed through the API, to the project's subscribers.
    message('tile_added', { v: v1, project: projectKey, revision, tile: tileDefinition }, ['v', 'project', 'revision', 'tile']),
    message(
      'tile_updated',
      {
        v: v1,
        project: projectKey,
        revision,
        tile: tileDefinition,
        changed: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: TILE_FIELDS } },
      },
      ['v', 'project', 'revision', 'tile', 'changed'],
    ),
    message('tile_removed', { v: v1, project: projectKey, revision, tile_id: { type: 'integer', minimum: 1 } }, ['v', 'project', 'revision', 'tile_id']),
    // A tile's history replaced by an applied replay: read it again from `since` (GET /tiles/:id/history).
    message(
      'tile_replaced',
      {
        v: v1,
        project: projectKey,
        tile_id: { type: 'integer', minimum: 1 },
        since: { type: 'string', format: 'date-time' },
        until: { type: 'string', format: 'date-time' },
        state: {
          type: 'object',
          required: ['status', 'value', 'version', 'last_event_id', 'changed_at'],
          properties: {
            status: { type: 'string' },
            value: { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }, { type: 'null' }] },
            version: { type: 'integer', minimum: 0 },
            last_event_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
            changed_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
          },
        },
      },
      ['v', 'project', 'tile_id', 'since', 'until', 'state'],
    ),
    // Live event tail (issue 28).
    message('tailing', { v: v1, project: projectKey, filters: tailFiltersSchema, max_per_second: { type: 'integer', minimum: 1 } }, [
      'v',
      'project',
      'filters',
      'max_per_second',
    ]),
    message('event', { v: v1, project: projectKey, event: { $ref: 'https://pulseboard.dev/schemas/ingested-event.json' } }, ['v', 'project', 'event']),
    message('skipped', { v: v1, project: projectKey, count: { type: 'integer', minimum: 1 }, reason: { type: 'string', enum: ['rate', 'slow_client'] } }, [
      'v',
      'project',
      'count',
      'reason',
    ]),
    message('untailed', { v: v1, project: projectKey, reason: { const: 'project_deleted' } }, ['v', 'project']),
  ],
} as const;
