import { MAX_BATCH_EVENTS } from '../webhook-request.schema.ts';
import { PAGERDUTY_ACTIONS } from './pagerduty.ts';

/*
 * The request bodies the integration endpoints take, as their tools document
 * them: what the gateway checks before mapping (and what the OpenAPI document
 * shows). Fields the tools may add later are tolerated; the mappings read only
 * what they know.
 */

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** Prometheus Alertmanager's webhook payload (version 4). */
export const alertmanagerWebhookSchema = {
  $id: 'https://pulseboard.dev/schemas/integrations/alertmanager-webhook.json',
  title: 'AlertmanagerWebhook',
  type: 'object',
  required: ['alerts'],
  properties: {
    version: { type: 'string' },
    groupKey: { type: 'string' },
    truncatedAlerts: { type: 'integer' },
    status: { type: 'string', enum: ['firing', 'resolved'] },
    receiver: { type: 'string' },
    groupLabels: stringMap,
    commonLabels: stringMap,
    commonAnnotations: stringMap,
    externalURL: { type: 'string' },
    alerts: {
      type: 'array',
      maxItems: MAX_BATCH_EVENTS,
      items: {
        type: 'object',
        required: ['status'],
        properties: {
          status: { type: 'string', enum: ['firing', 'resolved'] },
          labels: stringMap,
          annotations: stringMap,
          startsAt: { type: 'string' },
          endsAt: { type: 'string' },
          generatorURL: { type: 'string' },
          fingerprint: { type: 'string' },
        },
      },
    },
  },
} as const;

/** A PagerDuty Events API v2 event (`/v2/enqueue`). */
export const pagerDutyEventSchema = {
  $id: 'https://pulseboard.dev/schemas/integrations/pagerduty-event.json',
  title: 'PagerDutyEvent',
  type: 'object',
  required: ['event_action'],
  properties: {
    routing_key: { type: 'string', description: "The project's API key (evk_...)" },
    event_action: { type: 'string', enum: PAGERDUTY_ACTIONS },
    dedup_key: { type: 'string', maxLength: 255 },
    payload: {
      type: 'object',
      properties: {
        summary: { type: 'string', maxLength: 1024 },
        source: { type: 'string' },
        severity: { type: 'string', enum: ['critical', 'error', 'warning', 'info'] },
        timestamp: { type: 'string' },
        component: { type: 'string' },
        group: { type: 'string' },
        class: { type: 'string' },
        custom_details: {},
      },
    },
    client: { type: 'string' },
    client_url: { type: 'string' },
    links: { type: 'array', items: { type: 'object' } },
    images: { type: 'array', items: { type: 'object' } },
  },
} as const;

/** One CloudEvent in the JSON event format (structured mode, and each item of a batch). */
export const cloudEventSchema = {
  $id: 'https://pulseboard.dev/schemas/integrations/cloudevent.json',
  title: 'CloudEvent',
  type: 'object',
  required: ['specversion', 'id', 'source', 'type'],
  properties: {
    specversion: { type: 'string', const: '1.0' },
    id: { type: 'string', minLength: 1 },
    source: { type: 'string', minLength: 1 },
    type: { type: 'string', minLength: 1 },
    subject: { type: 'string' },
    time: { type: 'string' },
    datacontenttype: { type: 'string' },
    dataschema: { type: 'string' },
    data: {},
    data_base64: { type: 'string' },
    pbtype: { type: 'string', description: 'Extension: the envelope type (default infrastructure)' },
    pbseverity: { type: 'string', description: 'Extension: the envelope severity' },
    pbchannel: { type: 'string', description: 'Extension: the envelope channel' },
    correlationid: { type: 'string', description: 'Extension: the envelope correlation_id' },
  },
} as const;

/** CloudEvents batch mode: an array of structured events. */
export const cloudEventBatchSchema = {
  $id: 'https://pulseboard.dev/schemas/integrations/cloudevent-batch.json',
  title: 'CloudEventBatch',
  type: 'array',
  maxItems: MAX_BATCH_EVENTS,
  items: { $ref: 'https://pulseboard.dev/schemas/integrations/cloudevent.json' },
} as const;

/** A GitHub webhook delivery: any JSON object, read according to `X-GitHub-Event`. */
export const gitHubWebhookSchema = {
  $id: 'https://pulseboard.dev/schemas/integrations/github-webhook.json',
  title: 'GitHubWebhook',
  type: 'object',
} as const;

export const INTEGRATION_SCHEMAS = [alertmanagerWebhookSchema, pagerDutyEventSchema, cloudEventSchema, cloudEventBatchSchema, gitHubWebhookSchema] as const;
