import type { FromSchema } from 'json-schema-to-ts';

/** The rule engine's outcome of one webhook event (rule-outcomes topic): how many tiles it changed. */
export const ruleOutcomeSchema = {
  $id: 'https://pulseboard.dev/schemas/rule-outcome.json',
  title: 'RuleOutcome',
  type: 'object',
  additionalProperties: false,
  required: ['event_id', 'tiles_affected'],
  properties: {
    event_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    tiles_affected: { type: 'integer', minimum: 0 },
  },
} as const;

export type RuleOutcome = FromSchema<typeof ruleOutcomeSchema>;
