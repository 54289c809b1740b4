import type { ErrorObject } from 'ajv';
import {
  createAjv,
  detailsValidator,
  eventEnvelopeSchema,
  toValidationDetails,
  webhookBatchSchema,
  webhookEventSchema,
  type ValidationDetails,
} from '@pulseboard/contracts';

export interface EnvelopeValidator {
  /** Details of what is wrong, or null when the body is a valid envelope (spec 2.1). */
  envelope(body: unknown, prefix?: string): ValidationDetails | null;
  /** A single event of POST /api/v1/webhooks (project_key optional). */
  webhookEvent(body: unknown): ValidationDetails | null;
  /** A webhooks batch; details of events are keyed `events[3].type`. */
  webhookBatch(body: unknown): ValidationDetails | null;
}

const ITEM_PATH = /^\/events\/(\d+)(\/.*)?$/;

/**
 * Batch errors: those inside `events[i]` are reported per event, as a single
 * event's would be, under the prefix `events[i].`; the rest (too many events,
 * no array) under their own field.
 */
function batchDetails(errors: readonly ErrorObject[], body: unknown): ValidationDetails {
  const events = (body as { events?: unknown[] }).events ?? [];
  const outer: ErrorObject[] = [];
  const byItem = new Map<number, ErrorObject[]>();
  for (const error of errors) {
    const match = ITEM_PATH.exec(error.instancePath);
    if (match === null) {
      outer.push(error);
      continue;
    }
    const i = Number(match[1]);
    const list = byItem.get(i) ?? [];
    list.push({ ...error, instancePath: match[2] ?? '' });
    byItem.set(i, list);
  }
  const details = toValidationDetails(outer, body);
  // An empty batch reads better as blank than as "too short (minimum is 1 items)".
  if (outer.some((e) => e.keyword === 'minItems' && e.instancePath === '/events')) details.events = ["can't be blank"];
  for (const [i, list] of [...byItem].sort((a, b) => a[0] - b[0])) {
    Object.assign(details, toValidationDetails(list, events[i], { prefix: `events[${i}].` }));
  }
  return details;
}

/**
 * The envelope checks of the ingest endpoints. NUL and lone surrogates are not
 * looked for here: every request passed storable-input.ts' check before
 * (the schemas' `storableText` keyword is turned off, its walk not done twice).
 */
export function createEnvelopeValidator(): EnvelopeValidator {
  const ajv = createAjv({ storableText: false });
  ajv.addSchema(webhookEventSchema);
  const envelope = detailsValidator(ajv, eventEnvelopeSchema);
  const single = detailsValidator(ajv, { $ref: webhookEventSchema.$id });
  const batch = ajv.compile(webhookBatchSchema);
  return {
    envelope: (body, prefix) => envelope(body, prefix),
    webhookEvent: (body) => single(body),
    webhookBatch: (body) => (batch(body) ? null : batchDetails(batch.errors ?? [], body)),
  };
}
