import crypto, { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefixes of the two secrets a client holds (CONTRACT, Identity and access): a project API key, a user token. */
export const API_KEY_PREFIX = 'evk_';
export const USER_TOKEN_PREFIX = 'evu_';

/** Which kind of secret this is, by its prefix; `unknown` is neither (never a valid credential). */
export function credentialKind(secret: string): 'project' | 'user' | 'unknown' {
  if (secret.startsWith(API_KEY_PREFIX)) return 'project';
  if (secret.startsWith(USER_TOKEN_PREFIX)) return 'user';
  return 'unknown';
}

/** A new secret: prefix plus 32 random bytes, base64url. Shown once, stored only as its hash. */
export function generateSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * SHA-256 of the secret. The secrets carry 256 random bits, so a fast unsalted
 * hash is enough (no dictionary to attack) and lets us look the hash up by index.
 */
export function hashSecret(secret: string): Buffer {
  // The one-shot crypto.hash (Node >= 20.12) costs a fraction of createHash().update().digest(),
  // and this runs on every ingest request.
  return oneShotHash === undefined ? createHash('sha256').update(secret, 'utf8').digest() : oneShotHash('sha256', secret, 'buffer');
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The `Bearer` credential of an Authorization header, or undefined when absent or empty. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** A new project API key and what is stored of it: its hash, and a prefix to tell keys apart. */
export function newApiKey(): { apiKey: string; hash: Buffer; prefix: string } {
  const apiKey = generateSecret(API_KEY_PREFIX);
  return { apiKey, hash: hashSecret(apiKey), prefix: apiKey.slice(0, API_KEY_PREFIX.length + 6) };
}
