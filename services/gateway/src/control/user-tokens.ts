import { PulseboardError, generateSecret, hashSecret, USER_TOKEN_PREFIX } from '@pulseboard/contracts';
import type { NewUserToken, UserTokenRecord } from '../repositories/users.ts';

/** A documented cap (SECURITY.md): tokens one user may hold at once. */
export const MAX_TOKENS_PER_USER = 50;

/** A new token: the secret (shown once) and what is stored of it (a hash and a short prefix). */
export function newUserToken(label = '', expiresAt: Date | null = null): { secret: string; stored: NewUserToken } {
  const secret = generateSecret(USER_TOKEN_PREFIX);
  return { secret, stored: { hash: hashSecret(secret), prefix: secret.slice(0, USER_TOKEN_PREFIX.length + 6), label, expiresAt } };
}

/** `expires_at` of a create body: absent is never; a past instant is a validation error. */
export function parseExpiry(expiresAt: string | undefined, now = Date.now()): Date | null {
  if (expiresAt === undefined) return null;
  const at = new Date(expiresAt);
  if (!(at.getTime() > now)) throw new PulseboardError('validation_error', { details: { expires_at: ['must be in the future'] } });
  return at;
}

export function tooManyTokens(): PulseboardError {
  return new PulseboardError('resource_limit_reached', { message: `A user holds at most ${MAX_TOKENS_PER_USER} tokens; revoke one first` });
}

/** A token as the API shows it: ids as numbers, never the hash. */
export function presentUserToken(token: UserTokenRecord) {
  return { ...token, id: Number(token.id), user_id: Number(token.user_id) };
}
