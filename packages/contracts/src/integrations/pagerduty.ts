import type { WebhookEvent } from '../webhook-request.schema.ts';
import { isObject, Problems, recentOrReceived, type MappingContext, type MappingResult } from './mapping.ts';

export const PAGERDUTY_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
const PAGERDUTY_SEVERITIES = { critical: 'critical', error: 'error', warning: 'warn', info: 'info' } as const;
const STATUS = { trigger: 'triggered', acknowledge: 'acknowledged', resolve: 'resolved' } as const;

export interface PagerDutyContext extends MappingContext {
  /** The dedup key a trigger without one gets (PagerDuty makes one up and returns it; so do we). */
  newDedupKey: string;
}

export type PagerDutyResult = MappingResult & { dedupKey?: string };

/**
 * PagerDuty Events API v2 (`POST /v2/enqueue`, the format hundreds of tools
 * send: Alertmanager's `pagerduty_configs`, Grafana, Zabbix, ...). Every
 * action is one `type: error, name: alert` event whose `correlation_id` is the
 * dedup key: a trigger carries the payload's severity, summary, source and
 * custom details; acknowledge and resolve carry only the key and the new
 * status (`resolved: true` for resolve), so a tile can follow the incident.
 * The payload's `timestamp` is the event's when within the last day (see
 * `recentOrReceived`; it is kept as `attributes.timestamp` either way).
 * `routing_key` (the project's API key) is authentication and never stored.
 * Checked as PagerDuty checks: `event_action` in the list, a trigger's
 * `summary`, `source` and `severity` present, a `dedup_key` for acknowledge
 * and resolve.
 */
export function mapPagerDuty(body: unknown, context: PagerDutyContext): PagerDutyResult {
  if (!isObject(body)) return { kind: 'invalid', details: { base: ['must be a PagerDuty Events API v2 event (an object)'] } };
  const problems = new Problems();
  const action = body.event_action;
  if (!(PAGERDUTY_ACTIONS as readonly unknown[]).includes(action))
    problems.add('event_action', action === undefined ? "can't be blank" : 'is not included in the list');
  const givenKey = problems.optionalString('dedup_key', body.dedup_key);
  if (givenKey !== undefined && givenKey.length > 255) problems.add('dedup_key', 'is too long (maximum is 255 characters)');
  if ((action === 'acknowledge' || action === 'resolve') && (givenKey === undefined || givenKey === '')) problems.add('dedup_key', "can't be blank");
  if (!problems.empty) return { kind: 'invalid', details: problems.details };
  const dedupKey = givenKey !== undefined && givenKey !== '' ? givenKey : context.newDedupKey;
  const verb = action as (typeof PAGERDUTY_ACTIONS)[number];

  const attributes: Record<string, unknown> = {};
  const event: WebhookEvent = { type: 'error', name: 'alert', timestamp: context.receivedAt.toISOString(), correlation_id: dedupKey, attributes };
  if (verb === 'trigger') {
    const payload = body.payload;
    if (!isObject(payload)) {
      problems.add('payload', payload === undefined ? "can't be blank" : 'must be an object');
      return { kind: 'invalid', details: problems.details };
    }
    const summary = problems.requireString('payload.summary', payload.summary);
    if (summary !== undefined && summary.length > 1024) problems.add('payload.summary', 'is too long (maximum is 1024 characters)');
    const source = problems.requireString('payload.source', payload.source);
    const severity = PAGERDUTY_SEVERITIES[payload.severity as keyof typeof PAGERDUTY_SEVERITIES];
    if (severity === undefined) problems.add('payload.severity', payload.severity === undefined ? "can't be blank" : 'is not included in the list');
    const timestamp = problems.optionalString('payload.timestamp', payload.timestamp);
    const details = payload.custom_details;
    if (!problems.empty) return { kind: 'invalid', details: problems.details };
    // custom_details are the attributes; PagerDuty's own fields are written over a clash.
    if (isObject(details)) Object.assign(attributes, details);
    else if (details !== undefined && details !== null) attributes.custom_details = details;
    attributes.summary = summary;
    for (const field of ['component', 'group', 'class'] as const) if (payload[field] !== undefined) attributes[field] = payload[field];
    event.severity = severity!;
    event.source = source!;
    if (timestamp !== undefined) {
      attributes.timestamp = timestamp;
      event.timestamp = recentOrReceived(timestamp, context);
    }
  } else if (isObject(body.payload) && typeof body.payload.source === 'string' && body.payload.source !== '') {
    // Alertmanager's resolve repeats the trigger's payload: its source still says where the alert came from.
    event.source = body.payload.source;
  }
  attributes.dedup_key = dedupKey;
  attributes.event_action = verb;
  attributes.status = STATUS[verb];
  attributes.resolved = verb === 'resolve';
  for (const field of ['client', 'client_url', 'links', 'images'] as const) if (body[field] !== undefined) attributes[field] = body[field];
  return { kind: 'events', events: [event], dedupKey };
}
