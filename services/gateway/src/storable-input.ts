import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasUnstorableText, PulseboardError, type ValidationDetails } from '@pulseboard/contracts';

const MESSAGE = 'contains a NUL character or an unpaired surrogate';

/**
 * The field a body's unstorable text is reported under: the top-level field
 * (`name`, `settings`), and inside an array of objects the item's field too
 * (`events[3].attributes`), as validation reports a batch's events.
 */
function bodyDetails(body: unknown, details: ValidationDetails): void {
  if (typeof body !== 'object' || body === null) {
    if (hasUnstorableText(body)) details.base = [MESSAGE];
    return;
  }
  if (Array.isArray(body)) {
    if (hasUnstorableText(body)) details.base = [MESSAGE];
    return;
  }
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    if (hasUnstorableText(field)) {
      details.base = [`has a field name that ${MESSAGE}`];
      continue;
    }
    if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) {
      value.forEach((item, i) => {
        if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
          const inner: ValidationDetails = {};
          bodyDetails(item, inner);
          for (const [key, messages] of Object.entries(inner)) details[key === 'base' ? `${field}[${i}]` : `${field}[${i}].${key}`] = messages;
        } else if (hasUnstorableText(item)) {
          details[`${field}[${i}]`] = [MESSAGE];
        }
      });
    } else if (hasUnstorableText(value)) {
      details[field] = [MESSAGE];
    }
  }
}

/** Query parameters and path ids: flat strings (or arrays of them), reported by name. */
function flatDetails(values: unknown, details: ValidationDetails, where: string): void {
  if (typeof values !== 'object' || values === null) return;
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    if (hasUnstorableText(name)) details[where] = [`has a parameter name that ${MESSAGE}`];
    else if (hasUnstorableText(value)) details[name] = [MESSAGE];
  }
}

/**
 * What of a request holds text Postgres cannot store (NUL, an unpaired UTF-16
 * surrogate), by field; null when nothing does. A JSON body whose text held no
 * `\u` escape is not walked (see json-body.ts: it cannot hold such text).
 */
export function unstorableInput(request: Pick<FastifyRequest, 'query' | 'params' | 'body'> & { bodyEscapeFree?: boolean }): ValidationDetails | null {
  const details: ValidationDetails = {};
  flatDetails(request.params, details, 'path');
  flatDetails(request.query, details, 'query');
  if (request.body !== undefined && request.bodyEscapeFree !== true) bodyDetails(request.body, details);
  return Object.keys(details).length === 0 ? null : details;
}

/**
 * The one place that refuses unstorable text, on every route: JSON bodies,
 * query parameters and path ids, before any handler, schema or SQL sees them,
 * with 400 `validation_error` naming each field. It runs before the limit
 * check of the ingest endpoints too: such a request could never be accepted.
 */
export function registerStorableInput(app: FastifyInstance): void {
  // Callback style: the hot path (no escape in the body, no query) pays no promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const details = unstorableInput(request);
    if (details === null) done();
    else done(new PulseboardError('validation_error', { message: 'Invalid input: text that cannot be stored', details }));
  });
}
