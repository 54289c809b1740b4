import type { TileRule } from '@pulseboard/contracts';
import type { RuleEvent } from './event.ts';

/** What of an event a rule can read besides id, type, name and time: a reader of stored events need fetch no more. */
export interface RuleReads {
  severity: boolean;
  source: boolean;
  channel: boolean;
  labels: boolean;
  /** The top-level attribute keys its paths start with (`http` for `http.status_code`). */
  attributeKeys: readonly string[];
}

/** Read from the filter, the evaluation and `group_by`, the only parts of a rule that look at an event. */
export function ruleReads(rule: TileRule): RuleReads {
  const filter = rule.filter ?? {};
  const paths = Object.keys(filter.attributes ?? {});
  const evaluation = rule.evaluation;
  if ('attribute' in evaluation && typeof evaluation.attribute === 'string') paths.push(evaluation.attribute);
  const groupBy = rule.group_by;
  const envelopeGroup = groupBy === 'source' || groupBy === 'channel' || groupBy === 'name';
  if (groupBy !== undefined && !envelopeGroup) paths.push(groupBy);
  return {
    severity: filter.severity !== undefined,
    source: filter.source !== undefined || groupBy === 'source',
    channel: filter.channel !== undefined || groupBy === 'channel',
    labels: (filter.labels ?? []).length > 0,
    attributeKeys: [...new Set(paths.map((path) => path.split('.')[0]!))],
  };
}

/** The event as far as `reads` goes (what a narrowed read of it gives), for checking that the rule sees no difference. */
export function narrowEvent(event: RuleEvent, reads: RuleReads): RuleEvent {
  const attributes: Record<string, unknown> = {};
  for (const key of reads.attributeKeys) if (Object.hasOwn(event.attributes, key)) attributes[key] = event.attributes[key];
  return {
    ...event,
    severity: reads.severity ? event.severity : undefined,
    source: reads.source ? event.source : undefined,
    channel: reads.channel ? event.channel : undefined,
    labels: reads.labels ? event.labels : [],
    attributes,
  };
}
