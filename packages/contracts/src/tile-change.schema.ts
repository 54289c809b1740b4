import type { FromSchema } from 'json-schema-to-ts';
import { MAX_GROUP_KEY_LENGTH, TILE_STATUSES } from './tile-rule.schema.ts';

/** A tile's value: the number, boolean or event name its evaluation gives; null while unknown. */
export const tileValueSchema = { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }, { type: 'null' }] } as const;
export const TILE_CHANGE_CAUSES = ['event', 'time', 'rule'] as const;

/**
 * One change of a tile's status or value, as the rule engine records it in
 * `tile_state_history` and publishes it on the tile-changes topic. `position`
 * is the history row's id: per project it grows in commit order, so a reader
 * resumes after the last position it saw.
 */
export const tileChangeSchema = {
  $id: 'https://pulseboard.dev/schemas/tile-change.json',
  title: 'TileChange',
  type: 'object',
  additionalProperties: false,
  required: [
    'position',
    'tile_id',
    'project_key',
    'tile_name',
    'status',
    'previous_status',
    'value',
    'previous_value',
    'version',
    'event_id',
    'changed_at',
    'cause',
  ],
  properties: {
    position: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    tile_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    project_key: { type: 'string', minLength: 1 },
    tile_name: { type: 'string' },
    status: { type: 'string', enum: TILE_STATUSES },
    previous_status: { type: 'string', enum: TILE_STATUSES },
    value: tileValueSchema,
    previous_value: tileValueSchema,
    /** Starts at 0 (the tile's first state); each change adds one. */
    version: { type: 'integer', minimum: 1 },
    /** The event that made the change; null when time or a rule change made it. */
    event_id: { anyOf: [{ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }] },
    changed_at: { type: 'string', format: 'date-time' },
    cause: { type: 'string', enum: TILE_CHANGE_CAUSES },
    /**
     * Present only on a change of one group of a grouped tile (rule `group_by`): the group's key.
     * A change without it is the tile's own (for a grouped tile: its worst status and the count of groups in it).
     */
    group: { type: 'string', maxLength: MAX_GROUP_KEY_LENGTH },
  },
} as const;

export type TileValue = FromSchema<typeof tileValueSchema>;
export type TileChangeCause = (typeof TILE_CHANGE_CAUSES)[number];
export type TileChange = FromSchema<typeof tileChangeSchema>;
