import type { FromSchema } from 'json-schema-to-ts';
import { DEFAULT_MAX_GROUPS_PER_TILE, MAX_GROUPS_CEILING, MAX_JSON_LEVELS, MAX_RETENTION_DAYS, MAX_SETTINGS_BYTES } from '@pulseboard/contracts';

/**
 * Request bodies of the project API. Field names match the admin API's
 * create-project body, so what an operator sets there a user changes here.
 */
const limit = { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 } as const;

export const updateProjectBody = {
  $id: 'https://pulseboard.dev/schemas/update-project.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    settings: {
      type: 'object',
      maxProperties: 100,
      boundedJson: MAX_JSON_LEVELS,
      maxJsonBytes: MAX_SETTINGS_BYTES,
      description: `Free-form JSON: at most 100 fields, ${MAX_JSON_LEVELS} levels and ${MAX_SETTINGS_BYTES} bytes serialised as JSON (400 validation_error beyond)`,
      properties: {
        max_groups_per_tile: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_GROUPS_CEILING,
          description: `The most groups a grouped tile (rule \`group_by\`) of this project holds; default ${DEFAULT_MAX_GROUPS_PER_TILE}`,
        },
      },
    },
    monthly_quota: { type: 'integer', minimum: 0, maximum: 2147483647 },
    // null puts the environment's default back in force.
    burst_limit: limit,
    hourly_request_limit: limit,
    // Days events are kept; null: the environment's EVENT_RETENTION_DAYS.
    retention_days: { type: ['integer', 'null'], minimum: 1, maximum: MAX_RETENTION_DAYS },
  },
} as const;

export type UpdateProjectBody = FromSchema<typeof updateProjectBody>;

/** Fields only a user token may change (CONTRACT.md, Limits). */
export const LIMIT_FIELDS = ['monthly_quota', 'burst_limit', 'hourly_request_limit', 'retention_days'] as const;

export const regenerateKeyBody = {
  $id: 'https://pulseboard.dev/schemas/regenerate-key.json',
  type: 'object',
  additionalProperties: false,
  // `confirm` must be true; checked by the handler so that a missing or false
  // value gets one clear message instead of ajv's.
  properties: { confirm: { type: 'boolean' } },
} as const;

export type RegenerateKeyBody = FromSchema<typeof regenerateKeyBody>;
