import type { FromSchema } from 'json-schema-to-ts';
import { tileValueSchema } from './tile-change.schema.ts';
import { TILE_STATUSES } from './tile-rule.schema.ts';

const dateTime = { type: 'string', format: 'date-time' } as const;

/**
 * A tile's history replaced by an applied replay (POST /tiles/:id/replay with
 * dry_run false): its changes from `since` on are the replay's, and `state` is
 * the state the replay left. Written by the rule engine in the replay's
 * transaction (its outbox), so it exists only if the replay committed. A
 * reader holding the tile's history from `since` on reads it again
 * (GET /tiles/:id/history); `state.version` tells it apart from older and newer changes.
 */
export const tileReplacedSchema = {
  $id: 'https://pulseboard.dev/schemas/tile-replaced.json',
  title: 'TileReplaced',
  type: 'object',
  additionalProperties: false,
  required: ['project_key', 'tile_id', 'tile_name', 'since', 'until', 'state'],
  properties: {
    project_key: { type: 'string', minLength: 1 },
    tile_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    tile_name: { type: 'string' },
    /** The tile's changes from here on were replaced. */
    since: dateTime,
    /** Where the replay ended (time-driven changes taken up to here). */
    until: dateTime,
    state: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'value', 'version', 'last_event_id', 'changed_at'],
      properties: {
        status: { type: 'string', enum: TILE_STATUSES },
        value: tileValueSchema,
        version: { type: 'integer', minimum: 0 },
        last_event_id: { anyOf: [{ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }] },
        changed_at: { anyOf: [dateTime, { type: 'null' }] },
      },
    },
  },
} as const;

export type TileReplaced = FromSchema<typeof tileReplacedSchema>;
