import type { FromSchema } from 'json-schema-to-ts';

export const CONTROL_CHANGE_KINDS = [
  'project_created',
  'project_updated',
  'project_key_regenerated',
  'project_deleted',
  'tile_created',
  'tile_updated',
  'tile_deleted',
] as const;

/**
 * One control-plane write, as the gateway publishes it on the control topic
 * (compacted, key = project_key) through its outbox. `revision` is the
 * project's revision the write committed: it grows by one per write, so a
 * reader acts on a message only when it is newer than what its cache holds,
 * and then re-reads the project (the message says what changed, the tables
 * say what is). Repeats and messages out of order are therefore harmless.
 */
export const controlChangeSchema = {
  $id: 'https://pulseboard.dev/schemas/control-change.json',
  title: 'ControlChange',
  type: 'object',
  additionalProperties: false,
  required: ['project_key', 'revision', 'change', 'at'],
  properties: {
    project_key: { type: 'string', minLength: 1 },
    revision: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    change: { type: 'string', enum: CONTROL_CHANGE_KINDS },
    /** The tile a tile_* change is about. */
    tile_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

export type ControlChange = FromSchema<typeof controlChangeSchema>;
export type ControlChangeKind = (typeof CONTROL_CHANGE_KINDS)[number];

/** `pb-schema` of a control-topic message. */
export const CONTROL_CHANGE_SCHEMA_HEADER = 'control-change/1';
