import { createHash } from 'node:crypto';
import type { WebhookEvent } from '../webhook-request.schema.ts';
import { isObject, keyValueLabels, Problems, recentOrReceived, severityOf, type MappingContext, type MappingResult } from './mapping.ts';

/** An alert's labels when Alertmanager sent no fingerprint (before 0.19): a stable hash of them. */
function fingerprintOf(labels: Record<string, unknown>): string {
  const text = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function stringMap(problems: Problems, field: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    problems.add(field, 'must be an object');
    return {};
  }
  const map: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') map[key] = v;
    else problems.add(`${field}.${key}`, 'must be a string');
  }
  return map;
}

/**
 * Prometheus Alertmanager's webhook (`webhook_configs`, payload version 4):
 * one event per alert. A firing alert is `type: error, name: alert` with the
 * severity of its `severity` label (error when it has none); a resolved one is
 * the same alert (same name, same `correlation_id`: the fingerprint) with
 * `resolved: true` and severity info, so an `up_down` tile on `resolved`
 * follows it from critical to ok. Labels and annotations are kept whole in the
 * attributes, and the labels also as `key=value` envelope labels.
 */
export function mapAlertmanager(body: unknown, context: MappingContext): MappingResult {
  const problems = new Problems();
  if (!isObject(body)) return { kind: 'invalid', details: { base: ['must be an Alertmanager webhook payload (an object)'] } };
  const alerts = body.alerts;
  if (!Array.isArray(alerts)) {
    problems.add('alerts', alerts === undefined ? "can't be blank" : 'must be an array');
    return { kind: 'invalid', details: problems.details };
  }
  const group = {
    receiver: problems.optionalString('receiver', body.receiver),
    groupKey: problems.optionalString('groupKey', body.groupKey),
    externalURL: problems.optionalString('externalURL', body.externalURL),
  };
  const events: WebhookEvent[] = [];
  alerts.forEach((alert, i) => {
    const at = `alerts[${i}]`;
    if (!isObject(alert)) {
      problems.add(at, 'must be an object');
      return;
    }
    const status = alert.status;
    if (status !== 'firing' && status !== 'resolved') {
      problems.add(`${at}.status`, status === undefined ? "can't be blank" : 'is not included in the list');
      return;
    }
    const labels = stringMap(problems, `${at}.labels`, alert.labels);
    const annotations = stringMap(problems, `${at}.annotations`, alert.annotations);
    const startsAt = problems.optionalString(`${at}.startsAt`, alert.startsAt);
    const endsAt = problems.optionalString(`${at}.endsAt`, alert.endsAt);
    const generatorURL = problems.optionalString(`${at}.generatorURL`, alert.generatorURL);
    const given = problems.optionalString(`${at}.fingerprint`, alert.fingerprint);
    const fingerprint = given !== undefined && given !== '' ? given : fingerprintOf(labels);
    const resolved = status === 'resolved';
    const attributes: Record<string, unknown> = {
      alertname: labels.alertname ?? '',
      status,
      resolved,
      fingerprint,
      labels,
      annotations,
    };
    if (startsAt !== undefined) attributes.starts_at = startsAt;
    // A firing alert's endsAt is Alertmanager's guess (or year 1): only a resolved alert's is a fact.
    if (resolved && endsAt !== undefined) attributes.ends_at = endsAt;
    if (generatorURL !== undefined) attributes.generator_url = generatorURL;
    if (group.receiver !== undefined) attributes.receiver = group.receiver;
    if (group.groupKey !== undefined) attributes.group_key = group.groupKey;
    if (group.externalURL !== undefined) attributes.external_url = group.externalURL;
    const event: WebhookEvent = {
      type: 'error',
      name: 'alert',
      timestamp: recentOrReceived(resolved ? endsAt : startsAt, context),
      severity: resolved ? 'info' : severityOf(labels.severity, 'error'),
      correlation_id: fingerprint,
      source: 'alertmanager',
      attributes,
    };
    const envelopeLabels = keyValueLabels(labels);
    if (envelopeLabels.length > 0) event.labels = envelopeLabels;
    events.push(event);
  });
  if (!problems.empty) return { kind: 'invalid', details: problems.details };
  if (events.length === 0) return { kind: 'ignored', reason: 'the payload holds no alerts' };
  return { kind: 'events', events };
}
