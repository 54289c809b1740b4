import { createHash } from 'node:crypto';
import { PulseboardError } from '@pulseboard/contracts';
import type { RedisClient } from '../redis-client.ts';

export interface StoredResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string | number>;
}

/** The event ids and reception time an attempt gave its events before handing them to Kafka. */
export interface PublishAttempt {
  ids: readonly number[];
  receivedAtMs: number;
}

export type IdempotencyClaim =
  | { kind: 'none' }
  | {
      kind: 'claimed';
      /** An earlier attempt of this request whose events may or may not have reached Kafka: reuse its ids. */
      resume: PublishAttempt | undefined;
      complete: (response: StoredResponse) => Promise<void>;
      /** Nothing reached Kafka: the key is free again. */
      release: () => Promise<void>;
      /**
       * Called with the ids before the events are handed to Kafka: kept with the key for its TTL,
       * so if this gateway dies mid-request the retry that takes the key over (once the lease
       * ends) sends the same ids, which the store writes once.
       */
      recordAttempt: (attempt: PublishAttempt) => Promise<void>;
      /** Events were handed to Kafka and the outcome is unknown (e.g. no acknowledgement in time): the retry reuses their ids. */
      keepForRetry: (attempt: PublishAttempt) => Promise<void>;
    }
  | { kind: 'replay'; response: StoredResponse };

const MAX_KEY_LENGTH = 255;
const PENDING_TTL_SECONDS = 60;

// An entry is `<state>|<fingerprint>|<payload>`: p(ending, payload: the attempt's ids once they
// are recorded, or empty), r(etry: the attempt whose fate is unknown), d(one: the response).
// Fingerprints are base64url, so they hold no `|`. Beside it, a lease key lives while the
// gateway that claimed the entry may still be working on it.
// The claim in one step: a free key, one left for retry with this very body, or one pending
// with this body whose lease ran out (its gateway died: killed, crashed) becomes pending, leased
// anew; an entry keeps its TTL, so recorded ids outlive any number of takeovers.
// Returns {1, previous entry or nil} when claimed, {0, entry} when not.
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if not current then
  redis.call('SET', KEYS[1], 'p|' .. ARGV[1] .. '|', 'EX', ARGV[2])
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  return {1}
end
local state = string.sub(current, 1, 2)
local mine = string.sub(current, 3, 2 + #ARGV[1] + 1) == ARGV[1] .. '|'
if mine and (state == 'r|' or (state == 'p|' and redis.call('EXISTS', KEYS[2]) == 0)) then
  redis.call('SET', KEYS[1], 'p' .. string.sub(current, 2), 'KEEPTTL')
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  return {1, current}
end
return {0, current}`;

type ClaimCommand = (key: string, leaseKey: string, fingerprint: string, pendingTtl: number, leaseSeconds: number) => Promise<[number, string?]>;

/**
 * `Idempotency-Key`: the first request with a key claims it; its successful
 * response is kept for the TTL (24 h) and replayed to retries, which then
 * produce nothing. A key reused with a different body is refused (422), as is a
 * retry that races the first attempt still in progress (409). An attempt that
 * failed before its events reached Kafka releases the key, so the retry really
 * runs. One whose events were handed to Kafka without an acknowledgement (the
 * broker may still have written them) leaves their ids with the key: the retry
 * sends the same events with the same ids, and since the store writes an id
 * once, the events are stored once whatever became of the first attempt.
 * The ids are recorded before the hand-over, so this holds also when the
 * gateway is killed mid-request: its entry stays pending until its lease
 * (`leaseSeconds`, longer than a request can take) ends, and then a retry
 * takes it over with those ids (until then a retry gets 409).
 */
export class IdempotencyStore {
  private readonly claimCommand: ClaimCommand;

  constructor(
    private readonly redis: RedisClient,
    private readonly ttlSeconds: number,
    /** How long a claimed key is presumed worked on: past the longest a request can take (Kafka's delivery timeout plus the outcome wait). */
    private readonly leaseSeconds = 30,
  ) {
    if (!('pulseboardIdempotencyClaim' in redis)) redis.defineCommand('pulseboardIdempotencyClaim', { numberOfKeys: 2, lua: CLAIM });
    this.claimCommand = (redis as unknown as { pulseboardIdempotencyClaim: ClaimCommand }).pulseboardIdempotencyClaim.bind(redis);
  }

  /** `bodyText`: the request body as received (decoded), which the key's fingerprint covers byte for byte. */
  async claim(projectKey: string, endpoint: string, key: string | undefined, bodyText: string): Promise<IdempotencyClaim> {
    if (key === undefined) return NO_KEY;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      const message = key.length === 0 ? "can't be blank" : `is too long (maximum is ${MAX_KEY_LENGTH} characters)`;
      throw new PulseboardError('validation_error', { message: 'Invalid Idempotency-Key header', details: { 'Idempotency-Key': [message] } });
    }
    const redisKey = `{pbidem}:${projectKey}:${endpoint}:${createHash('sha256').update(key).digest('base64url')}`;
    const fingerprint = createHash('sha256').update(bodyText).digest('base64url');
    let claimed: number;
    let previous: string | undefined;
    try {
      [claimed, previous] = await this.claimCommand(
        redisKey,
        `{pbidem}:lease:${redisKey.slice('{pbidem}:'.length)}`,
        fingerprint,
        PENDING_TTL_SECONDS,
        this.leaseSeconds,
      );
    } catch (error) {
      // Redis unreachable: the retry must be able to run later, so refuse as retryable (503).
      throw new PulseboardError('idempotency_unavailable', { message: 'the idempotency store (Redis) is unavailable', cause: error });
    }
    const entry = previous === undefined ? undefined : parseEntry(previous);
    if (claimed === 1) {
      return {
        kind: 'claimed',
        // A pending entry taken over before its gateway recorded ids: nothing was handed to Kafka.
        resume: entry === undefined || entry.payload === '' ? undefined : (JSON.parse(entry.payload) as PublishAttempt),
        complete: async (response) => {
          await this.redis.set(redisKey, `d|${fingerprint}|${JSON.stringify(response)}`, 'EX', this.ttlSeconds);
        },
        recordAttempt: async (attempt) => {
          await this.redis.set(redisKey, `p|${fingerprint}|${JSON.stringify({ ids: attempt.ids, receivedAtMs: attempt.receivedAtMs })}`, 'EX', this.ttlSeconds);
        },
        release: async () => {
          await this.redis.del(redisKey);
        },
        keepForRetry: async (attempt) => {
          await this.redis.set(redisKey, `r|${fingerprint}|${JSON.stringify({ ids: attempt.ids, receivedAtMs: attempt.receivedAtMs })}`, 'EX', this.ttlSeconds);
        },
      };
    }
    if (entry === undefined || entry.fingerprint !== fingerprint) throw new PulseboardError('idempotency_key_reused');
    if (entry.state !== 'd') throw new PulseboardError('idempotency_conflict');
    return { kind: 'replay', response: JSON.parse(entry.payload) as StoredResponse };
  }
}

const NO_KEY: IdempotencyClaim = { kind: 'none' };

function parseEntry(value: string): { state: string; fingerprint: string; payload: string } | undefined {
  const first = value.indexOf('|');
  const second = value.indexOf('|', first + 1);
  if (first !== 1 || second < 0) return undefined;
  return { state: value[0]!, fingerprint: value.slice(2, second), payload: value.slice(second + 1) };
}
