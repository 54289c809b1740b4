import type { FromSchema } from 'json-schema-to-ts';

/** The body of PUT /api/v1/projects/:id/integrations/:integration: the secret, or nothing to have one made. */
export const putIntegrationSecretBody = {
  $id: 'https://pulseboard.dev/schemas/put-integration-secret.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    // GitHub takes any text as a webhook secret; short ones are guessable.
    secret: { type: 'string', minLength: 16, maxLength: 256, pattern: '^[\\x21-\\x7e]+$' },
  },
} as const;

export type PutIntegrationSecretBody = FromSchema<typeof putIntegrationSecretBody>;
