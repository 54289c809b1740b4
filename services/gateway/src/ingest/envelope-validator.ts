import { createAjv, detailsValidator, eventEnvelopeSchema, type EventEnvelope, type ValidationDetails } from '@pulseboard/contracts';

export interface EnvelopeValidator {
  /** Details of what is wrong, or null when the body is a valid envelope. */
  envelope(body: unknown, prefix?: string): ValidationDetails | null;
}

export function createEnvelopeValidator(): EnvelopeValidator {
  const ajv = createAjv();
  const check = detailsValidator(ajv, eventEnvelopeSchema);
  return { envelope: (body, prefix) => check(body, prefix) };
}

export function isEnvelope(body: unknown, validator: EnvelopeValidator): body is EventEnvelope {
  return validator.envelope(body) === null;
}
