import { integrationIgnoredSchema, webhookBatchAcceptedSchema } from '@pulseboard/contracts';
import { errors, RATE_LIMIT_HEADERS, REPLAYED_HEADER } from '../../openapi/route-docs.ts';

/** Mapped events take the webhooks' path: the same headers once the limits were looked at. */
const SENT_HEADERS = { ...RATE_LIMIT_HEADERS, ...REPLAYED_HEADER };

/** What an integration that sends events may refuse with: the webhooks' errors (the mapped batch is checked as theirs is). */
export const integrationErrors = errors('envelope', [400, 401, 402, 403, 404, 409, 422, 429, 503], SENT_HEADERS);

/** 202 `ignored`: the payload had nothing to record (answered before any limit, nothing counted). */
const ignored = { $ref: integrationIgnoredSchema.$id };

/** The answers of the integration endpoints that take events, as documented in the OpenAPI document. */
export const acceptedResponses = {
  202: {
    description: 'Accepted (`accepted`, with the events made), or nothing to record (`ignored`)',
    headers: SENT_HEADERS,
    oneOf: [{ $ref: webhookBatchAcceptedSchema.$id }, ignored],
  },
  ...integrationErrors,
};

/** The same, where the tool expects its own success answer (PagerDuty's). */
export function acceptedAs(schema: { $id: string }, description: string) {
  return { 202: { description, headers: SENT_HEADERS, oneOf: [{ $ref: schema.$id }, ignored] }, ...integrationErrors };
}
