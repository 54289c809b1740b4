import { randomBytes } from 'node:crypto';

/**
 * Secrets from the environment (SECRETS_KEY, ADMIN_TOKEN) must be ones nobody
 * else knows: no service starts with an empty, short, published or placeholder
 * value, development included (deploy/up.sh generates strong ones).
 */
export const SECRET_MIN_BYTES = 32;

/** Values this repository has shipped as defaults or examples, refused even when long enough. */
const PUBLISHED = new Set(
  [
    'pulseboard-development-secrets-key',
    'change-me-to-a-long-secret',
    'change-me-to-a-long-random-secret',
    'CHANGE_ME',
    'CHANGE_ME_TO_A_LONG_RANDOM_SECRET',
    'test-admin-token-0123456789',
  ].map((s) => s.toLowerCase()),
);

// Words of a value someone meant to replace. Long enough that a random key never contains one by chance.
const PLACEHOLDER = /change[\s_-]?me|changeit|placeholder|replace[\s_-]?(me|this)|your[\s_-]?(secret|token|key)|example|insecure|not[\s_-]?secret/i;

/** Fewer distinct characters than this is a typed pattern, not a random key. */
const MIN_DISTINCT_CHARS = 8;

/** Why `value` is not acceptable as a secret, or undefined when it is. */
export function secretWeakness(value: string): string | undefined {
  if (value === '') return 'must be set (generate one: openssl rand -base64 32)';
  if (PUBLISHED.has(value.toLowerCase()) || PLACEHOLDER.test(value))
    return 'is a published default or a placeholder: generate your own (openssl rand -base64 32)';
  if (Buffer.byteLength(value, 'utf8') < SECRET_MIN_BYTES) return `must be at least ${SECRET_MIN_BYTES} bytes long (generate one: openssl rand -base64 32)`;
  if (new Set(value).size < MIN_DISTINCT_CHARS) return 'is too repetitive to be a random secret (generate one: openssl rand -base64 32)';
  return undefined;
}

/** A strong secret of the right size, for scripts and tests that start services. */
export function generateSecret(): string {
  // 32 random bytes, base64url: 43 characters.
  return randomBytes(SECRET_MIN_BYTES).toString('base64url');
}
