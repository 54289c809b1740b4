import { createAjv, detailsValidator } from '../validation.ts';
import { webhookBatchSchema, webhookEventSchema } from '../webhook-request.schema.ts';

const ajv = createAjv();
ajv.addSchema(webhookEventSchema);
const batch = detailsValidator(ajv, webhookBatchSchema);

/** What the gateway's validation would say of mapped events (null: all valid envelopes). */
export function envelopeProblems(events: unknown[]): ReturnType<typeof batch> {
  return batch({ events });
}
