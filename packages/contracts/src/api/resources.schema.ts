import { EVENT_TYPES, SEVERITIES } from '../event-envelope.schema.ts';
import { NOTIFICATION_TYPES } from '../notification.schema.ts';
import { TILE_CHANGE_CAUSES, tileValueSchema } from '../tile-change.schema.ts';
import { TILE_STATUSES } from '../tile-rule.schema.ts';
import { projectFreshnessSchema } from '../freshness.ts';

/**
 * The bodies the gateway answers with (the HTTP API's resources). The routes
 * declare them as response schemas; the OpenAPI document is generated from
 * the routes, so these are its one source.
 */
const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullable = <T extends object>(schema: T) => ({ anyOf: [schema, { type: 'null' }] }) as const;
const S = 'https://pulseboard.dev/schemas/';

export const listMetaSchema = {
  $id: `${S}list-meta.json`,
  title: 'ListMeta',
  type: 'object',
  additionalProperties: false,
  required: ['current_page', 'total_pages', 'total_count', 'per_page'],
  properties: { current_page: { type: 'integer' }, total_pages: { type: 'integer' }, total_count: { type: 'integer' }, per_page: { type: 'integer' } },
} as const;

export const ingestAcceptedSchema = {
  $id: `${S}ingest-accepted.json`,
  title: 'IngestAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'event_id', 'message', 'quota_used', 'quota_limit', 'rate_limit_remaining'],
  properties: {
    status: { const: 'accepted' },
    event_id: { ...id, description: 'The integer id; `evt_<id>` names the same event' },
    message: { type: 'string' },
    quota_used: { type: 'integer' },
    quota_limit: { type: 'integer' },
    rate_limit_remaining: { type: 'integer', description: 'Events left in the burst window' },
  },
} as const;

const webhookEventRef = { type: 'string', pattern: '^evt_[0-9]+$' } as const;

/** 201 of one event: the rule engine's outcome arrived in time. */
export const webhookResultSchema = {
  $id: `${S}webhook-result.json`,
  title: 'WebhookResult',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'event_id', 'processed_at', 'tiles_affected'],
  properties: { status: { const: 'success' }, event_id: webhookEventRef, processed_at: dateTime, tiles_affected: { type: 'integer', minimum: 0 } },
} as const;

/** 201 of a batch: the sum and one entry per event, in the order sent. */
export const webhookBatchResultSchema = {
  $id: `${S}webhook-batch-result.json`,
  title: 'WebhookBatchResult',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'count', 'processed_at', 'tiles_affected', 'events'],
  properties: {
    status: { const: 'success' },
    count: { type: 'integer', minimum: 1, maximum: 100 },
    processed_at: dateTime,
    tiles_affected: { type: 'integer', minimum: 0 },
    events: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['event_id', 'tiles_affected'],
        properties: { event_id: webhookEventRef, tiles_affected: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;

/** 202 of one event: stored, the rule engine's outcome not awaited or not in time. */
export const webhookAcceptedSchema = {
  $id: `${S}webhook-accepted.json`,
  title: 'WebhookAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'event_id', 'processed_at'],
  properties: { status: { const: 'accepted' }, event_id: webhookEventRef, processed_at: dateTime },
} as const;

export const webhookBatchAcceptedSchema = {
  $id: `${S}webhook-batch-accepted.json`,
  title: 'WebhookBatchAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'count', 'processed_at', 'events'],
  properties: {
    status: { const: 'accepted' },
    count: { type: 'integer', minimum: 1, maximum: 100 },
    processed_at: dateTime,
    events: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['event_id'], properties: { event_id: webhookEventRef } } },
  },
} as const;

export const storedEventSchema = {
  $id: `${S}stored-event.json`,
  title: 'StoredEvent',
  type: 'object',
  additionalProperties: false,
  required: [
    'event_id',
    'event_ref',
    'project_key',
    'type',
    'name',
    'timestamp',
    'received_at',
    'severity',
    'channel',
    'correlation_id',
    'source',
    'labels',
    'attributes',
  ],
  properties: {
    event_id: id,
    event_ref: webhookEventRef,
    project_key: { type: 'string' },
    type: { type: 'string', enum: EVENT_TYPES },
    name: { type: 'string' },
    timestamp: dateTime,
    received_at: dateTime,
    severity: nullable({ type: 'string', enum: SEVERITIES }),
    channel: nullable({ type: 'string' }),
    correlation_id: nullable({ type: 'string' }),
    source: nullable({ type: 'string' }),
    labels: { type: 'array', items: { type: 'string' } },
    attributes: { type: 'object' },
  },
} as const;

const limitsInForce = {
  type: 'object',
  additionalProperties: false,
  required: ['burst_per_minute', 'project_hourly_requests', 'monthly_quota', 'retention_days'],
  properties: {
    burst_per_minute: { type: 'integer' },
    project_hourly_requests: { type: 'integer' },
    monthly_quota: { type: 'integer' },
    retention_days: { type: 'integer' },
  },
} as const;

const projectProperties = {
  id: { type: 'string', description: 'The project key (projects are named by their key)' },
  project_key: { type: 'string' },
  account_id: id,
  name: { type: 'string' },
  api_key_prefix: { type: 'string' },
  monthly_quota: { type: 'integer' },
  burst_limit: nullable({ type: 'integer' }),
  hourly_request_limit: nullable({ type: 'integer' }),
  retention_days: nullable({ type: 'integer' }),
  limits: limitsInForce,
  settings: { type: 'object' },
  created_at: dateTime,
  updated_at: dateTime,
} as const;

export const projectSchema = {
  $id: `${S}project.json`,
  title: 'Project',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(projectProperties) as (keyof typeof projectProperties)[],
  properties: projectProperties,
} as const;

/** One project as `GET /projects/{key}` answers it: the project, and how far behind live its tiles are. */
export const projectDetailSchema = {
  $id: `${S}project-detail.json`,
  title: 'ProjectDetail',
  type: 'object',
  additionalProperties: false,
  required: [...(Object.keys(projectProperties) as (keyof typeof projectProperties)[]), 'freshness'],
  properties: { ...projectProperties, freshness: { $ref: projectFreshnessSchema.$id } },
} as const;

/** What a grouped tile's state (rule `group_by`) shows beside a tile's: its groups per status, refusals and a page of its groups. */
const groupedStateFields = {
  group_counts: {
    type: 'object',
    description: 'A grouped tile only: how many groups are in each status',
    additionalProperties: false,
    required: [...TILE_STATUSES],
    properties: Object.fromEntries(TILE_STATUSES.map((status) => [status, { type: 'integer', minimum: 0 }])) as Record<
      (typeof TILE_STATUSES)[number],
      { type: 'integer'; minimum: 0 }
    >,
  },
  groups_refused: {
    type: 'integer',
    minimum: 0,
    description: 'A grouped tile only: events refused because their group would have been past the limit (or its key over 256 characters)',
  },
  groups: {
    type: 'array',
    description:
      'A grouped tile only: its groups, worst status first, then by key: a page of them (`page`, `per_page`: default and at most 100) in the state, the first 100 in a preview',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['key', 'status', 'value', 'version', 'changed_at'],
      properties: {
        key: { type: 'string', description: 'The value at `group_by`; `(none)` for events without one' },
        status: { type: 'string', enum: TILE_STATUSES },
        value: tileValueSchema,
        version: { type: 'integer', minimum: 0 },
        changed_at: { ...nullable(dateTime), description: "The group's last change; null before any" },
      },
    },
  },
} as const;

/** A project with its API key: shown once, when the key is made (admin create, regenerate_key). */
export const projectWithKeySchema = {
  $id: `${S}project-with-key.json`,
  title: 'ProjectWithKey',
  type: 'object',
  additionalProperties: false,
  required: [...(Object.keys(projectProperties) as (keyof typeof projectProperties)[]), 'api_key'],
  properties: { ...projectProperties, api_key: { type: 'string', pattern: '^evk_' } },
} as const;

export const tileSchema = {
  $id: `${S}tile.json`,
  title: 'Tile',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'project_key', 'name', 'kind', 'rule', 'settings', 'position', 'notification_service_ids', 'created_at', 'updated_at'],
  properties: {
    id,
    project_key: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string' },
    rule: { $ref: 'https://pulseboard.dev/schemas/tile-rule.json' },
    settings: { type: 'object' },
    position: { type: 'integer' },
    notification_service_ids: { type: 'array', items: id },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

export const tileStateSchema = {
  $id: `${S}tile-state.json`,
  title: 'TileState',
  type: 'object',
  additionalProperties: false,
  required: ['tile_id', 'project_key', 'status', 'value', 'version', 'last_event_id', 'changed_at'],
  properties: {
    tile_id: id,
    project_key: { type: 'string' },
    status: { type: 'string', enum: TILE_STATUSES },
    value: tileValueSchema,
    version: { type: 'integer', minimum: 0 },
    last_event_id: nullable(id),
    changed_at: dateTime,
    group_by: {
      type: 'string',
      description: "A grouped tile only: its rule's `group_by`. Its `status` is its worst group's, its `value` how many groups have it",
    },
    ...groupedStateFields,
    groups_meta: {
      type: 'object',
      description: 'A grouped tile only: the page of `groups`',
      additionalProperties: false,
      required: listMetaSchema.required,
      properties: listMetaSchema.properties,
    },
  },
} as const;

/** One change of a tile's history (GET /tiles/:id/history), as the rule engine recorded it. */
export const tileHistoryEntrySchema = {
  $id: `${S}tile-history-entry.json`,
  title: 'TileHistoryEntry',
  type: 'object',
  additionalProperties: false,
  required: ['position', 'tile_id', 'status', 'previous_status', 'value', 'unit', 'version', 'event_id', 'cause', 'changed_at'],
  properties: {
    position: {
      ...id,
      description: 'The history row: grows per project in the order of the changes (the tile-changes topic and the WebSocket carry the same number)',
    },
    tile_id: id,
    status: { type: 'string', enum: TILE_STATUSES },
    previous_status: { type: 'string', enum: TILE_STATUSES },
    value: tileValueSchema,
    unit: {
      ...nullable({ type: 'string' }),
      description: "The tile's `settings.unit`, else the `unit` attribute of the event that made the change, else null",
    },
    version: { type: 'integer', minimum: 1 },
    event_id: { ...nullable(id), description: 'The event that made the change; null when time or a rule change made it' },
    cause: { type: 'string', enum: TILE_CHANGE_CAUSES },
    changed_at: dateTime,
    group: { type: 'string', description: "The group the change is of (`?group=`); absent for the tile's own changes" },
  },
} as const;

/** What a tile rule would have done over the project's stored events (POST /tiles/preview). */
export const tilePreviewSchema = {
  $id: `${S}tile-preview.json`,
  title: 'TilePreview',
  type: 'object',
  additionalProperties: false,
  required: ['project_key', 'since', 'until', 'events_scanned', 'events_matched', 'changes_total', 'state', 'timeline'],
  properties: {
    project_key: { type: 'string' },
    since: dateTime,
    until: { ...dateTime, description: 'When the preview ran: time-driven changes are taken up to here' },
    events_scanned: {
      type: 'integer',
      minimum: 0,
      description: "Events read: the project's events since `since` of the filter's types and names (when it names them)",
    },
    events_matched: { type: 'integer', minimum: 0, description: 'Events the whole filter matched, each applied to the tile' },
    changes_total: { type: 'integer', minimum: 0, description: 'Changes the tile would have made; `timeline` holds the newest 5,000 of them' },
    state: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'value', 'version', 'changed_at'],
      properties: {
        status: { type: 'string', enum: TILE_STATUSES },
        value: tileValueSchema,
        version: { type: 'integer', minimum: 0 },
        changed_at: nullable(dateTime),
      },
      description: 'The state the tile would have now',
    },
    ...groupedStateFields,
    timeline: {
      type: 'array',
      description: 'The changes, oldest first (as tile history records them, without position)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['status', 'previous_status', 'value', 'version', 'event_id', 'cause', 'changed_at'],
        properties: {
          status: { type: 'string', enum: TILE_STATUSES },
          previous_status: { type: 'string', enum: TILE_STATUSES },
          value: tileValueSchema,
          version: { type: 'integer', minimum: 1 },
          event_id: nullable(id),
          cause: { type: 'string', enum: TILE_CHANGE_CAUSES },
          changed_at: dateTime,
          group: { type: 'string', description: "A grouped rule: the group the change is of; absent for the tile's own changes" },
        },
      },
    },
  },
} as const;

const tileStateShape = {
  type: tileStateSchema.type,
  additionalProperties: false,
  required: tileStateSchema.required,
  properties: tileStateSchema.properties,
} as const;

/** A tile replayed over the project's stored events with its current rule (POST /tiles/:id/replay). */
export const tileReplaySchema = {
  $id: `${S}tile-replay.json`,
  title: 'TileReplay',
  type: 'object',
  additionalProperties: false,
  required: ['tile_id', 'since', 'until', 'dry_run', 'equal', 'state', 'live', 'events_replayed'],
  properties: {
    tile_id: id,
    since: { ...dateTime, description: 'Where the replay started from an unknown state: events received from here on were applied' },
    until: { ...dateTime, description: 'When the replay ran: time-driven changes are taken up to here' },
    dry_run: { type: 'boolean', description: 'true: nothing was changed; false: the replayed state and history replaced the live ones' },
    equal: { type: 'boolean', description: 'Whether the replayed status and value are the live ones (the live state as of `until`)' },
    state: { ...tileStateShape, description: 'The replayed state, as GET /tiles/{id}/state shows a state' },
    live: { ...tileStateShape, description: 'The live state (GET /tiles/{id}/state) when the replay ran; after an apply, the state it replaced' },
    events_replayed: { type: 'integer', minimum: 0, description: "Events the tile's filter matched, each applied in the order the rule engine met them" },
    changes_total: { type: 'integer', minimum: 0, description: 'Changes the replay made (the history since `since` it stands for)' },
  },
} as const;

export const notificationServiceSchema = {
  $id: `${S}notification-service.json`,
  title: 'NotificationService',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'type', 'config', 'created_at', 'updated_at'],
  properties: {
    id,
    name: { type: 'string' },
    type: { type: 'string', enum: NOTIFICATION_TYPES },
    config: { type: 'object', description: "The type's config; secret fields masked (a webhook secret is shown once, when generated)" },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

export const deliverySchema = {
  $id: `${S}delivery.json`,
  title: 'Delivery',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'attempts', 'last_error', 'response_status', 'tile_id', 'event_id', 'created_at', 'delivered_at'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer', minimum: 0 },
    last_error: nullable({ type: 'string' }),
    response_status: nullable({ type: 'integer' }),
    tile_id: nullable(id),
    event_id: nullable(id),
    created_at: dateTime,
    delivered_at: nullable(dateTime),
  },
} as const;

/** What became of a send_message / send request (waited for, bounded: `pending` when not final yet). */
export const sendOutcomeSchema = {
  $id: `${S}send-outcome.json`,
  title: 'SendOutcome',
  type: 'object',
  additionalProperties: false,
  required: ['delivery_id', 'status', 'attempts', 'response_status'],
  properties: {
    delivery_id: { type: 'string' },
    status: { type: 'string', enum: ['delivered', 'failed', 'pending'] },
    attempts: { type: 'integer', minimum: 0 },
    response_status: nullable({ type: 'integer' }),
  },
} as const;

const limitStatus = {
  type: 'object',
  additionalProperties: false,
  required: ['limit', 'used', 'remaining', 'reset', 'reset_at', 'counts'],
  properties: {
    limit: { type: 'integer' },
    used: { type: 'integer' },
    remaining: { type: 'integer' },
    reset: { type: 'integer', description: 'Unix epoch seconds when the window ends, as in X-RateLimit-Reset' },
    reset_at: dateTime,
    counts: { type: 'string', enum: ['events', 'requests'] },
  },
} as const;

export const rateLimitsReportSchema = {
  $id: `${S}rate-limits-report.json`,
  title: 'RateLimitsReport',
  type: 'object',
  additionalProperties: false,
  required: ['project_key', 'limits'],
  properties: {
    project_key: { type: 'string' },
    limits: {
      type: 'object',
      additionalProperties: false,
      // global_hourly_requests is left out when the installation sets no global limit.
      required: ['burst_per_minute', 'project_hourly_requests', 'account_hourly_requests', 'monthly_quota'],
      properties: {
        burst_per_minute: limitStatus,
        project_hourly_requests: limitStatus,
        account_hourly_requests: limitStatus,
        global_hourly_requests: limitStatus,
        monthly_quota: limitStatus,
      },
    },
  },
} as const;

export const accountSchema = {
  $id: `${S}account.json`,
  title: 'Account',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'hourly_request_limit'],
  properties: {
    id,
    name: { type: 'string' },
    hourly_request_limit: nullable({ type: 'integer' }),
    created_at: dateTime,
    max_monthly_quota: { ...nullable({ type: 'integer' }), description: "The most a user token may set a project's quota to; null: the environment's ceiling" },
    max_burst_limit: nullable({ type: 'integer' }),
    max_hourly_request_limit: nullable({ type: 'integer' }),
  },
} as const;

export const userSchema = {
  $id: `${S}user.json`,
  title: 'User',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'account_id', 'email'],
  properties: { id, account_id: id, email: { type: 'string' }, created_at: dateTime },
} as const;

/** A user with a new token: shown once, when it is made. */
export const userWithTokenSchema = {
  $id: `${S}user-with-token.json`,
  title: 'UserWithToken',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'account_id', 'email', 'token'],
  properties: { id, account_id: id, email: { type: 'string' }, token: { type: 'string', pattern: '^evu_' } },
} as const;

const userTokenProperties = {
  id,
  user_id: id,
  label: { type: 'string', description: 'What the token is for (empty when none was given)' },
  prefix: { type: 'string', description: 'The first characters of the token, to tell tokens apart; the token itself is never shown again' },
  created_at: dateTime,
  expires_at: { ...nullable(dateTime), description: 'When the token stops working (401); null: never' },
  last_used_at: { ...nullable(dateTime), description: 'When a request last authenticated with it (updated at most about once a minute); null: never used' },
} as const;

/** One of a user's tokens, as listed: never the secret. */
export const userTokenSchema = {
  $id: `${S}user-token.json`,
  title: 'UserToken',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'user_id', 'label', 'prefix', 'created_at', 'expires_at', 'last_used_at'],
  properties: userTokenProperties,
} as const;

/** A new user token: the secret is shown once, when it is made. */
export const userTokenWithSecretSchema = {
  $id: `${S}user-token-with-secret.json`,
  title: 'UserTokenWithSecret',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'user_id', 'label', 'prefix', 'created_at', 'expires_at', 'last_used_at', 'token'],
  properties: { ...userTokenProperties, token: { type: 'string', pattern: '^evu_' } },
} as const;

/** What an integration endpoint answers when a payload had nothing to record (before any limit: nothing counted). */
export const integrationIgnoredSchema = {
  $id: `${S}integration-ignored.json`,
  title: 'IntegrationIgnored',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message'],
  properties: { status: { const: 'ignored' }, message: { type: 'string' } },
} as const;

/** PagerDuty Events API v2's own success answer, so PagerDuty clients read it as they read PagerDuty's. */
export const pagerDutyAcceptedSchema = {
  $id: `${S}pagerduty-accepted.json`,
  title: 'PagerDutyAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message', 'dedup_key'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string' },
    dedup_key: { type: 'string', description: 'The dedup_key sent, or the one made up for a trigger without it' },
  },
} as const;

/** GitHub's `ping` (sent when a hook is created), answered. */
export const gitHubPongSchema = {
  $id: `${S}github-pong.json`,
  title: 'GitHubPong',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message'],
  properties: { status: { const: 'ok' }, message: { type: 'string' } },
} as const;

/** A project's secret for a tool that signs its deliveries (GitHub): masked, except in the answer that made it up. */
export const integrationSecretSchema = {
  $id: `${S}integration-secret.json`,
  title: 'IntegrationSecret',
  type: 'object',
  additionalProperties: false,
  required: ['integration', 'secret', 'created_at', 'updated_at'],
  properties: {
    integration: { type: 'string', enum: ['github'] },
    secret: { type: 'string', description: '`••••` once set; the secret itself only in the PUT answer that generated it (then `secret_shown_once` is true)' },
    secret_shown_once: { const: true },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

/** Every response resource schema, for registering them at once. */
export const API_RESOURCE_SCHEMAS = [
  listMetaSchema,
  ingestAcceptedSchema,
  webhookResultSchema,
  webhookBatchResultSchema,
  webhookAcceptedSchema,
  webhookBatchAcceptedSchema,
  storedEventSchema,
  projectSchema,
  projectFreshnessSchema,
  projectDetailSchema,
  projectWithKeySchema,
  tileSchema,
  tileStateSchema,
  tileHistoryEntrySchema,
  tilePreviewSchema,
  tileReplaySchema,
  notificationServiceSchema,
  deliverySchema,
  sendOutcomeSchema,
  rateLimitsReportSchema,
  accountSchema,
  userSchema,
  userWithTokenSchema,
  userTokenSchema,
  userTokenWithSecretSchema,
  integrationIgnoredSchema,
  pagerDutyAcceptedSchema,
  gitHubPongSchema,
  integrationSecretSchema,
] as const;
