import { EVENT_TYPES, SEVERITIES } from '../event-envelope.schema.ts';
import type { WebhookEvent } from '../webhook-request.schema.ts';
import { hasUnstorableText } from '../validation.ts';
import { isObject, Problems, type MappingContext, type MappingResult } from './mapping.ts';

export const CLOUDEVENTS_STRUCTURED = 'application/cloudevents+json';
export const CLOUDEVENTS_BATCH = 'application/cloudevents-batch+json';

/** Context attributes of CloudEvents 1.0 that are not extensions. */
const CONTEXT_ATTRIBUTES = new Set(['specversion', 'id', 'source', 'type', 'subject', 'time', 'datacontenttype', 'dataschema', 'data', 'data_base64']);

/** One CloudEvent as its context attributes and data, whichever HTTP mode carried it. */
interface CloudEvent {
  attributes: Record<string, unknown>;
  data?: unknown;
  dataBase64?: unknown;
}

export interface CloudEventsRequest {
  /** The media type of Content-Type, lower case, without parameters. */
  mediaType: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: unknown;
}

function headerText(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (text === undefined) return undefined;
  // The HTTP binding percent-encodes header values; a malformed escape is kept as sent.
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Binary mode: the context attributes are `ce-*` headers, the body is the data (JSON only here). */
function fromBinary(request: CloudEventsRequest, problems: Problems): CloudEvent {
  const attributes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!name.startsWith('ce-') || name.length === 3) continue;
    const text = headerText(value);
    // Percent-decoding can make text no JSON body could bring past the gateway's check (%00).
    if (hasUnstorableText(text)) problems.add(name, 'contains a NUL character or an unpaired surrogate');
    attributes[name.slice(3)] = text;
  }
  if (request.mediaType !== undefined) attributes.datacontenttype = request.mediaType;
  return request.body === undefined ? { attributes } : { attributes, data: request.body };
}

function fromStructured(json: Record<string, unknown>): CloudEvent {
  const { data, data_base64: dataBase64, ...attributes } = json;
  return { attributes, ...(data === undefined ? {} : { data }), ...(dataBase64 === undefined ? {} : { dataBase64 }) };
}

/**
 * One CloudEvent to an envelope. The CloudEvent's `type` is the event's
 * `name`; its `source` the `source`; `time` the `timestamp` (the receipt time
 * when absent). Pulseboard's own fields travel as extension attributes:
 * `pbtype` (the envelope `type`; `infrastructure`, spec 6's category for any
 * name, when absent), `pbseverity`, `pbchannel`, `correlationid`. Object data
 * becomes the attributes (other data is `attributes.data`, base64 data
 * `attributes.data_base64`), and every context attribute, extensions included,
 * is kept under `attributes.cloudevents`.
 */
function toEnvelope(ce: CloudEvent, at: string, problems: Problems, context: MappingContext): WebhookEvent | undefined {
  const a = ce.attributes;
  const field = (name: string) => `${at}${name}`;
  if (a.specversion !== '1.0') problems.add(field('specversion'), a.specversion === undefined ? "can't be blank" : 'is not included in the list');
  problems.requireString(field('id'), a.id);
  const source = problems.requireString(field('source'), a.source);
  const type = problems.requireString(field('type'), a.type);
  problems.optionalString(field('subject'), a.subject);
  const time = problems.optionalString(field('time'), a.time);
  for (const [name, value] of Object.entries(a)) {
    if (CONTEXT_ATTRIBUTES.has(name)) continue;
    if (!/^[a-z0-9]{1,20}$/.test(name)) problems.add(field(name), 'is not a valid CloudEvents attribute name (a-z, 0-9, at most 20)');
    else if (!['string', 'number', 'boolean'].includes(typeof value)) problems.add(field(name), 'must be a string, number or boolean');
  }
  const pbtype = a.pbtype ?? 'infrastructure';
  if (!(EVENT_TYPES as readonly unknown[]).includes(pbtype)) problems.add(field('pbtype'), 'is not included in the list');
  if (a.pbseverity !== undefined && !(SEVERITIES as readonly unknown[]).includes(a.pbseverity))
    problems.add(field('pbseverity'), 'is not included in the list');
  for (const name of ['pbchannel', 'correlationid']) if (a[name] !== undefined) problems.optionalString(field(name), a[name]);
  if (ce.dataBase64 !== undefined && typeof ce.dataBase64 !== 'string') problems.add(field('data_base64'), 'must be a string');
  if (ce.data !== undefined && ce.dataBase64 !== undefined) problems.add(field('data'), 'may not be sent together with data_base64');
  if (type === undefined || source === undefined) return undefined;

  const attributes: Record<string, unknown> = isObject(ce.data) ? { ...ce.data } : ce.data === undefined ? {} : { data: ce.data };
  if (ce.dataBase64 !== undefined) attributes.data_base64 = ce.dataBase64;
  attributes.cloudevents = { ...a };
  const event: WebhookEvent = {
    type: pbtype as WebhookEvent['type'],
    name: type,
    timestamp: time ?? context.receivedAt.toISOString(),
    source,
    attributes,
  };
  if (a.pbseverity !== undefined) event.severity = a.pbseverity as NonNullable<WebhookEvent['severity']>;
  if (typeof a.pbchannel === 'string') event.channel = a.pbchannel;
  if (typeof a.correlationid === 'string') event.correlation_id = a.correlationid;
  return event;
}

/**
 * CloudEvents 1.0 over HTTP (the HTTP protocol binding and JSON event format):
 * structured mode (`application/cloudevents+json`, the event is the body),
 * batch mode (`application/cloudevents-batch+json`, an array of structured
 * events) and binary mode (any other JSON content type: `ce-*` headers carry
 * the context attributes, the body is the data).
 */
export function mapCloudEvents(request: CloudEventsRequest, context: MappingContext): MappingResult {
  const problems = new Problems();
  let events: CloudEvent[];
  let prefix: (i: number) => string = () => '';
  if (request.mediaType === CLOUDEVENTS_BATCH) {
    if (!Array.isArray(request.body)) return { kind: 'invalid', details: { base: ['must be an array of CloudEvents (batch mode)'] } };
    events = [];
    request.body.forEach((item, i) => {
      if (isObject(item)) events.push(fromStructured(item));
      else problems.add(`[${i}]`, 'must be a CloudEvent (an object)');
    });
    prefix = (i) => `[${i}].`;
  } else if (request.mediaType === CLOUDEVENTS_STRUCTURED) {
    if (!isObject(request.body)) return { kind: 'invalid', details: { base: ['must be a CloudEvent (an object, structured mode)'] } };
    events = [fromStructured(request.body)];
  } else {
    if (request.headers['ce-specversion'] === undefined) {
      return {
        kind: 'invalid',
        details: { 'ce-specversion': ["can't be blank (send ce-* headers with JSON data, or a body of type application/cloudevents+json)"] },
      };
    }
    events = [fromBinary(request, problems)];
    prefix = () => 'ce-';
  }
  if (!problems.empty) return { kind: 'invalid', details: problems.details };
  const envelopes = events.map((ce, i) => toEnvelope(ce, prefix(i), problems, context));
  if (!problems.empty) return { kind: 'invalid', details: problems.details };
  if (envelopes.length === 0) return { kind: 'ignored', reason: 'the batch holds no events' };
  return { kind: 'events', events: envelopes as WebhookEvent[] };
}
