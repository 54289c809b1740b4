import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis-client.ts';
import { pulseboardError } from '@pulseboard/contracts';
import { apiError, type ApiError } from '../replies.ts';

export interface StoredResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string | number>;
}

export type IdempotencyClaim =
  | { kind: 'none' }
  | { kind: 'claimed'; complete: (response: StoredResponse) => Promise<void>; release: () => Promise<void> }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'refused'; error: ApiError };

const MAX_KEY_LENGTH = 255;
const PENDING_TTL_SECONDS = 60;

/**
 * `Idempotency-Key`: the first request with a key claims it; its successful
 * response is kept for the TTL (24 h) and replayed to retries, which then
 * produce nothing. A key reused with a different body is refused (422), as is a
 * retry that races the first attempt still in progress (409). Failed attempts
 * release the key so the client's retry really runs.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly ttlSeconds: number,
  ) {}

  async claim(projectKey: string, endpoint: string, key: string | undefined, body: unknown): Promise<IdempotencyClaim> {
    if (key === undefined) return { kind: 'none' };
    try {
      return await this.claimKey(projectKey, endpoint, key, body);
    } catch (error) {
      // Redis unreachable: the retry must be able to run later, so refuse as retryable (503).
      throw pulseboardError('idempotency_unavailable', 'the idempotency store (Redis) is unavailable', { retryable: true, status: 503, cause: error });
    }
  }

  private async claimKey(projectKey: string, endpoint: string, key: string, body: unknown): Promise<IdempotencyClaim> {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      const message = key.length === 0 ? "can't be blank" : `is too long (maximum is ${MAX_KEY_LENGTH} characters)`;
      return { kind: 'refused', error: apiError(400, 'validation_error', 'Invalid Idempotency-Key header', { details: { 'Idempotency-Key': [message] } }) };
    }
    const redisKey = `{pbidem}:${projectKey}:${endpoint}:${createHash('sha256').update(key).digest('base64url')}`;
    const fingerprint = createHash('sha256').update(JSON.stringify(body) ?? '').digest('base64url');
    const pending = JSON.stringify({ pending: true, fingerprint });
    const won = await this.redis.set(redisKey, pending, 'EX', PENDING_TTL_SECONDS, 'NX');
    if (won === 'OK') {
      return {
        kind: 'claimed',
        complete: async (response) => {
          await this.redis.set(redisKey, JSON.stringify({ fingerprint, response }), 'EX', this.ttlSeconds);
        },
        release: async () => {
          await this.redis.del(redisKey);
        },
      };
    }
    const stored = await this.redis.get(redisKey);
    if (stored === null) return this.claimKey(projectKey, endpoint, key, body);
    const entry = JSON.parse(stored) as { pending?: boolean; fingerprint: string; response?: StoredResponse };
    if (entry.fingerprint !== fingerprint) {
      return { kind: 'refused', error: apiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request body') };
    }
    if (entry.response === undefined) {
      return { kind: 'refused', error: apiError(409, 'idempotency_conflict', 'A request with this Idempotency-Key is still in progress', { headers: { 'retry-after': 1 } }) };
    }
    return { kind: 'replay', response: entry.response };
  }
}
