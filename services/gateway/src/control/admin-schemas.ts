import { MAX_RETENTION_DAYS, PulseboardError } from '@pulseboard/contracts';

/** Limits are Postgres integers: above this they would fail to store (500; found by the fuzzing suite). */
const INT4_MAX = 2147483647;

/** Request bodies of the admin API (CONTRACT.md, Identity and access). */
export const createAccountBody = {
  $id: 'https://pulseboard.dev/schemas/admin-create-account.json',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    hourly_request_limit: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    retention_days: { type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS },
  },
} as const;

const ceiling = { type: ['integer', 'null'], minimum: 0, maximum: INT4_MAX } as const;

/** PUT /admin/accounts/:id: the account's ceilings for what its user tokens may set (null: the environment's). */
export const updateAccountCeilingsBody = {
  $id: 'https://pulseboard.dev/schemas/admin-update-account-ceilings.json',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { max_monthly_quota: ceiling, max_burst_limit: { ...ceiling, minimum: 1 }, max_hourly_request_limit: { ...ceiling, minimum: 1 } },
} as const;

export const createUserBody = {
  $id: 'https://pulseboard.dev/schemas/admin-create-user.json',
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', format: 'email', maxLength: 320 } },
} as const;

/** POST /admin/users/:id/tokens: a label to tell the token apart, and when it stops working (none: never). */
export const createUserTokenBody = {
  $id: 'https://pulseboard.dev/schemas/admin-create-user-token.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string', maxLength: 200 },
    expires_at: {
      type: 'string',
      format: 'date-time',
      description:
        "When the token stops working (in the future); absent: never. Through POST /api/v1/tokens, at most the calling token's own expiry, and absent means that expiry",
    },
  },
} as const;

export const createProjectBody = {
  $id: 'https://pulseboard.dev/schemas/admin-create-project.json',
  type: 'object',
  required: ['project_key', 'name'],
  properties: {
    project_key: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9_-]*$' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    monthly_quota: { type: 'integer', minimum: 0, maximum: INT4_MAX },
    burst_limit: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    hourly_request_limit: { type: 'integer', minimum: 1, maximum: INT4_MAX },
  },
} as const;

/** A unique field (email, project_key) already in use: 400 with CONTRACT's wording. */
export function alreadyTaken(field: string): PulseboardError {
  return new PulseboardError('validation_error', { details: { [field]: ['has already been taken'] } });
}
