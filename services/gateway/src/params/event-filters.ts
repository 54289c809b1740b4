import { EVENT_TYPES, SEVERITIES, type ValidationDetails } from '@pulseboard/contracts';
import { EQUALITY_FILTERS, type EventFilters } from '@pulseboard/event-store';
import { parseTime } from './time-window.ts';

/**
 * The filters of CONTRACT.md (Lists), validated: equality on type, name,
 * severity, source, channel, correlation_id; `label` (repeatable: every label
 * given must be present); `since` (inclusive) and `until` (exclusive) on the
 * event's own timestamp. Other query parameters are refused by the route (400).
 */
export function parseEventFilters(query: Record<string, unknown>): { ok: true; filters: EventFilters } | { ok: false; details: ValidationDetails } {
  const details: ValidationDetails = {};
  const filters: EventFilters = { equal: [], labels: [] };
  for (const name of EQUALITY_FILTERS) {
    const value = query[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) details[name] = ['must be given once'];
    else if (typeof value !== 'string' || value === '') details[name] = ["can't be blank"];
    else if (name === 'type' && !(EVENT_TYPES as readonly string[]).includes(value)) details[name] = ['is not included in the list'];
    else if (name === 'severity' && !(SEVERITIES as readonly string[]).includes(value)) details[name] = ['is not included in the list'];
    else filters.equal.push([name, value]);
  }
  if (query.label !== undefined) {
    const labels = Array.isArray(query.label) ? query.label : [query.label];
    if (labels.some((l) => typeof l !== 'string' || l === '')) details.label = ["can't be blank"];
    else filters.labels = [...new Set(labels as string[])];
  }
  const since = query.since === undefined ? undefined : parseTime(query.since);
  const until = query.until === undefined ? undefined : parseTime(query.until);
  if (query.since !== undefined && since === undefined) details.since = ['is not a valid ISO 8601 timestamp'];
  if (query.until !== undefined && until === undefined) details.until = ['is not a valid ISO 8601 timestamp'];
  if (since !== undefined && until !== undefined && until <= since) details.until = ['must be after since'];
  if (since !== undefined) filters.since = since.toISOString();
  if (until !== undefined) filters.until = until.toISOString();
  return Object.keys(details).length > 0 ? { ok: false, details } : { ok: true, filters };
}
