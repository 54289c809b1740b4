import type { FromSchema } from 'json-schema-to-ts';
import { ATTRIBUTE_PATH_PATTERN, DURATION_PATTERN } from './rule-patterns.ts';
import { EVENT_TYPES, SEVERITIES, eventEnvelopeSchema } from './event-envelope.schema.ts';

/** What a tile's data can say about it; `unknown` and `stale` come from the absence of data. */
export const TILE_LEVELS = ['ok', 'warning', 'critical'] as const;
export const TILE_STATUSES = ['unknown', 'ok', 'warning', 'critical', 'stale'] as const;
export const EVALUATION_KINDS = ['status_map', 'threshold', 'window', 'up_down'] as const;
export const WINDOW_AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export const THRESHOLD_DIRECTIONS = ['above', 'below'] as const;
export const ATTRIBUTE_OPERATORS = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'exists', 'contains'] as const;
/** Envelope fields a tile can group by; any other `group_by` is an attribute path. */
export const GROUP_BY_FIELDS = ['source', 'channel', 'name'] as const;
/** The group of an event that has no value (or no scalar value) at the `group_by` path. */
export const MISSING_GROUP_KEY = '(none)';
/** The longest group key: an event whose value is longer is refused (counted in `groups_refused`), never cut to merge with another. */
export const MAX_GROUP_KEY_LENGTH = 256;
/** Groups a tile holds at once unless its project's `settings.max_groups_per_tile` says otherwise (1 to `MAX_GROUPS_CEILING`). */
export const DEFAULT_MAX_GROUPS_PER_TILE = 1000;
export const MAX_GROUPS_CEILING = 10_000;
/** A group without an event for this long leaves the tile, unless the rule's `group_retire_after` says otherwise. */
export const DEFAULT_GROUP_RETIRE_AFTER = '7d';

const MAX_LIST_ITEMS = 100;
const duration = { type: 'string', pattern: DURATION_PATTERN } as const;
const attributePath = { type: 'string', minLength: 1, maxLength: 200, pattern: ATTRIBUTE_PATH_PATTERN } as const;
const level = { type: 'number' } as const;
const scalar = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] } as const;

/** A string, or a non-empty list of strings: any of them matches. */
function oneOrMany<const T extends object>(item: T) {
  return { anyOf: [item, { type: 'array', minItems: 1, maxItems: MAX_LIST_ITEMS, items: item }] } as const;
}

const envelope = eventEnvelopeSchema.properties;

const attributeOperators = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    eq: scalar,
    ne: scalar,
    in: { type: 'array', minItems: 1, maxItems: MAX_LIST_ITEMS, items: scalar },
    gt: { type: 'number' },
    gte: { type: 'number' },
    lt: { type: 'number' },
    lte: { type: 'number' },
    exists: { type: 'boolean' },
    contains: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
  },
} as const;

/** Every key given must hold; an empty filter matches every event of the project. */
const filter = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: oneOrMany({ type: 'string', enum: EVENT_TYPES }),
    name: oneOrMany({ type: 'string', minLength: 1, maxLength: envelope.name.maxLength }),
    severity: oneOrMany({ type: 'string', enum: SEVERITIES }),
    source: oneOrMany({ type: 'string', minLength: 1, maxLength: envelope.source.maxLength }),
    channel: oneOrMany({ type: 'string', minLength: 1, maxLength: envelope.channel.maxLength }),
    /** The event carries every one of these labels. */
    labels: { type: 'array', maxItems: envelope.labels.maxItems, items: { type: 'string', minLength: 1, maxLength: envelope.labels.items.maxLength } },
    /** Dotted path → a value it equals (no type coercion), or an object of operators that must all hold. */
    attributes: {
      type: 'object',
      maxProperties: 32,
      propertyNames: attributePath,
      additionalProperties: { anyOf: [...scalar.anyOf, attributeOperators] },
    },
  },
} as const;

// strictRequired: a required property is declared beside it.
const needsALevel = {
  anyOf: [
    { required: ['warning'], properties: { warning: level } },
    { required: ['critical'], properties: { critical: level } },
  ],
} as const;

const statusMapEvaluation = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'map'],
  properties: {
    kind: { const: 'status_map' },
    /** Event name → the status it means; other names leave the tile as it is. */
    map: {
      type: 'object',
      minProperties: 1,
      maxProperties: MAX_LIST_ITEMS,
      propertyNames: { minLength: 1, maxLength: envelope.name.maxLength },
      additionalProperties: { type: 'string', enum: TILE_LEVELS },
    },
  },
} as const;

const thresholdEvaluation = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'attribute'],
  properties: {
    kind: { const: 'threshold' },
    attribute: attributePath,
    warning: level,
    critical: level,
    /** `above` (when absent): value ≥ level; `below`: value ≤ level. */
    direction: { type: 'string', enum: THRESHOLD_DIRECTIONS },
  },
  ...needsALevel,
} as const;

const windowEvaluation = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'aggregate', 'window'],
  properties: {
    kind: { const: 'window' },
    aggregate: { type: 'string', enum: WINDOW_AGGREGATES },
    attribute: attributePath,
    window: duration,
    warning: level,
    critical: level,
    direction: { type: 'string', enum: THRESHOLD_DIRECTIONS },
  },
  ...needsALevel,
  // count counts events; every other aggregate reads a numeric attribute.
  if: { required: ['aggregate'], properties: { aggregate: { const: 'count' } } },
  then: { properties: { attribute: false } },
  else: { required: ['attribute'], properties: { attribute: attributePath } },
} as const;

const upDownEvaluation = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'attribute'],
  properties: {
    kind: { const: 'up_down' },
    /** A boolean attribute: true is ok, false critical. */
    attribute: attributePath,
  },
} as const;

/**
 * A tile's rule (CONTRACT.md, Tiles): which events concern the tile (`filter`),
 * how they decide its status and value (`evaluation`), and damping and
 * staleness. Unknown fields are errors, so a typo never silently matches
 * everything. What JSON Schema cannot say (levels ordered along `direction`,
 * the largest duration of each field, `group_retire_after` only with
 * `group_by`) is checked by `tileRuleProblems`.
 */
export const tileRuleSchema = {
  $id: 'https://pulseboard.dev/schemas/tile-rule.json',
  title: 'TileRule',
  type: 'object',
  additionalProperties: false,
  required: ['evaluation'],
  properties: {
    filter,
    evaluation: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string', enum: EVALUATION_KINDS } },
      anyOf: [statusMapEvaluation, thresholdEvaluation, windowEvaluation, upDownEvaluation],
    },
    /** A worse status must hold this long before the tile takes it. */
    pending: duration,
    /** A better status must hold this long before the tile takes it. */
    recovery: duration,
    /** No matching event for this long makes the tile `stale`. */
    stale_after: duration,
    /**
     * One state per value of this attribute path, or of the envelope's `source`,
     * `channel` or `name`: every event the filter matches is evaluated against
     * its group's state, and the tile shows the worst group (rules.md, "Grouped tiles").
     */
    group_by: attributePath,
    /** A group with no event for this long is retired (default `DEFAULT_GROUP_RETIRE_AFTER`); only with `group_by`. */
    group_retire_after: duration,
  },
} as const;

export type TileRule = FromSchema<typeof tileRuleSchema>;
export type TileRuleFilter = NonNullable<TileRule['filter']>;
export type TileEvaluation = TileRule['evaluation'];
export type TileLevel = (typeof TILE_LEVELS)[number];
export type TileStatus = (typeof TILE_STATUSES)[number];
export type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number];
export type GroupByField = (typeof GROUP_BY_FIELDS)[number];
