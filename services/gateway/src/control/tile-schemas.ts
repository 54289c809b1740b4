import type { FromSchema } from 'json-schema-to-ts';
import { MAX_JSON_LEVELS, MAX_SETTINGS_BYTES, tileRuleSchema } from '@pulseboard/contracts';

/**
 * Request bodies of the tile API. `rule` is the published rule format
 * (contracts' `tile-rule.json`, CONTRACT Tiles); what its schema cannot say
 * (duration maxima, level order) is checked by the route with `tileRuleProblems`.
 */
/** A tile's rule, serialised, may not exceed this (rules are evaluated on every event). */
export const MAX_RULE_BYTES = 16384;

const tileFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  kind: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[a-z][a-z0-9_]*$' },
  rule: { $ref: tileRuleSchema.$id },
  settings: {
    type: 'object',
    maxProperties: 50,
    boundedJson: MAX_JSON_LEVELS,
    maxJsonBytes: MAX_SETTINGS_BYTES,
    description: `Free-form JSON the dashboard reads (e.g. \`unit\`): at most 50 fields, ${MAX_JSON_LEVELS} levels and ${MAX_SETTINGS_BYTES} bytes serialised as JSON (400 validation_error beyond)`,
  },
  position: { type: 'integer', minimum: 0, maximum: 100000 },
  /** Notification services of the same account, told of each status transition. */
  notification_service_ids: { type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} as const;

export const createTileBody = {
  $id: 'https://pulseboard.dev/schemas/create-tile.json',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'rule'],
  properties: {
    // Optional with a project key (its own project); required with a user token.
    project_key: { type: 'string', minLength: 1, maxLength: 100 },
    ...tileFields,
  },
} as const;

export const updateTileBody = {
  $id: 'https://pulseboard.dev/schemas/update-tile.json',
  type: 'object',
  additionalProperties: false,
  // A tile stays in its project: project_key is not a field of an update.
  properties: tileFields,
} as const;

type References = { references: [typeof tileRuleSchema] };
export type CreateTileBody = FromSchema<typeof createTileBody, References>;
export type UpdateTileBody = FromSchema<typeof updateTileBody, References>;

/** POST /tiles/preview: a rule tried over the project's stored events since `since` (default: an hour ago, at most 24 h). */
export const previewTileBody = {
  $id: 'https://pulseboard.dev/schemas/preview-tile.json',
  type: 'object',
  additionalProperties: false,
  required: ['rule'],
  properties: {
    // Optional with a project key (its own project); required with a user token.
    project_key: { type: 'string', minLength: 1, maxLength: 100 },
    rule: { $ref: tileRuleSchema.$id },
    since: { type: 'string', format: 'date-time', description: 'Where the preview starts; default: an hour ago; at most 24 h ago' },
  },
} as const;

export type PreviewTileBody = FromSchema<typeof previewTileBody, References>;

/** POST /tiles/:id/replay: the tile's current rule over the stored events since `since`. */
export const replayTileBody = {
  $id: 'https://pulseboard.dev/schemas/replay-tile.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    since: {
      type: 'string',
      format: 'date-time',
      description: "Where the replay starts from an unknown state; default: the tile's creation, at most 24 h ago",
    },
    dry_run: {
      type: 'boolean',
      default: true,
      description: "true (default): compare only; false: replace the tile's state and its history since `since` with the replayed ones",
    },
  },
} as const;

export type ReplayTileBody = FromSchema<typeof replayTileBody>;
