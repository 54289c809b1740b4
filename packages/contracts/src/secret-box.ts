import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets a service must use again in clear (a webhook's signing secret, a
 * Slack URL) are stored sealed: AES-256-GCM under a key from the environment
 * (`SECRETS_KEY`), so a copy of the database alone does not reveal them.
 * Sealed text: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
function keyOf(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function seal(plain: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function unseal(sealed: string, secret: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The keys sealed text is opened with: `current` seals and opens; during a
 * rotation `previous` (SECRETS_KEY_PREVIOUS) still opens what it sealed, until
 * every row is sealed again under `current` (`pnpm secrets:rotate`).
 */
export interface SecretKeys {
  current: string;
  previous?: string | undefined;
}

/** Opens sealed text with the current key or, failing that, the previous one; `current` says which. */
export function unsealWith(sealed: string, keys: SecretKeys): { plain: string; current: boolean } {
  try {
    return { plain: unseal(sealed, keys.current), current: true };
  } catch (error) {
    if (keys.previous === undefined || keys.previous === '') throw error;
  }
  try {
    return { plain: unseal(sealed, keys.previous), current: false };
  } catch {
    // GCM's tag fails under a wrong key: neither key sealed this.
    throw new Error('sealed under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS');
  }
}

/** What the API shows of a secret: enough to tell two apart, never enough to use. */
export function maskSecret(value: string): string {
  // A URL (a webhook's, Slack's) carries its credential in the path or query, sometimes in user:password@:
  // only its scheme, host and port are shown.
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      return `${url.protocol}//${url.host}/••••`;
    } catch {
      return '••••';
    }
  }
  return value.length <= 10 ? '••••' : `${value.slice(0, 6)}••••${value.slice(-2)}`;
}
