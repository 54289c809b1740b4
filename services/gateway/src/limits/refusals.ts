import type { Logger } from 'pino';
import type { RedisClient } from '../redis-client.ts';
import type { LimitDecision, RateWindow } from './limiter.ts';
import { LIMITER_HASH_TAG } from './limiter.ts';

type Refusal = Extract<LimitDecision, { kind: 'rate_limited' | 'quota_exceeded' }>;

/** What refused a request: a rate window, or the monthly quota. */
export type RefusalReason = RateWindow | 'monthly_quota';

const REASON_TEXT: Record<RefusalReason, string> = {
  minute: 'per-minute burst limit',
  project_hour: 'hourly request limit of the project',
  account_hour: 'hourly request limit of the account',
  global_hour: 'global hourly request limit',
  monthly_quota: 'monthly quota',
};

/** Minutes a project's refusals are reported for: the current one and the ones before it. */
export const REFUSAL_MINUTES = 5;

/** A project's refused requests in its last REFUSAL_MINUTES minutes, as GET /api/v1/projects/:id/refusals shows them. */
export interface RecentRefusals {
  project_key: string;
  since: string;
  count: number;
  rate_limited: number;
  quota_exceeded: number;
  last: { at: string; status: 429 | 402; reason: RefusalReason; limit: number; message: string } | null;
}

interface Pending {
  projectKey: string;
  minute: number;
  rateLimited: number;
  quotaExceeded: number;
  lastMs: number;
  lastStatus: 429 | 402;
  reason: RefusalReason;
  limit: number;
}

// Adds a flush's counts to each project's minute hash and keeps its latest refusal; the hash
// expires after the minutes it is reported for.
const FLUSH = `
local ttl = ARGV[1]
for i, key in ipairs(KEYS) do
  local b = 1 + (i - 1) * 6
  local r, q, t = tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]), tonumber(ARGV[b + 3])
  if r > 0 then redis.call('HINCRBY', key, 'r', r) end
  if q > 0 then redis.call('HINCRBY', key, 'q', q) end
  if t >= tonumber(redis.call('HGET', key, 't') or '0') then
    redis.call('HSET', key, 't', ARGV[b + 3], 's', ARGV[b + 4], 'w', ARGV[b + 5], 'l', ARGV[b + 6])
  end
  redis.call('EXPIRE', key, ttl)
end
return #KEYS`;

/**
 * Counts requests refused by the limits (429, 402) per project and minute, so
 * the dashboard can say why a project's tiles stand still. Off the request's
 * path: a refusal is added up in memory and the counts go to Redis once a
 * second, one script call for every project (keys carry the limiter's hash
 * tag: one Redis Cluster slot); a flood of refused requests costs Redis one
 * call a second. A gateway that dies loses at most its last second of counts.
 */
export class RefusalLog {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private loggedMinute = -1;
  private readonly loggedProjects = new Set<string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly flushMs = 1000,
  ) {}

  static key(projectKey: string, minute: number): string {
    return `${LIMITER_HASH_TAG}:rf:${projectKey}:${minute}`;
  }

  /** Notes one refused request of the project. */
  record(projectKey: string, refusal: Refusal): void {
    const nowMs = this.now();
    const minute = Math.floor(nowMs / 60_000);
    const id = `${projectKey}\n${minute}`;
    let entry = this.pending.get(id);
    if (entry === undefined) {
      entry = { projectKey, minute, rateLimited: 0, quotaExceeded: 0, lastMs: 0, lastStatus: 429, reason: 'minute', limit: 0 };
      this.pending.set(id, entry);
    }
    // The project the PulseboardEventsRefused alert cannot name (its metric has no project label):
    // one line per project and minute of refusals (per gateway), however many requests are refused.
    if (minute !== this.loggedMinute) {
      this.loggedMinute = minute;
      this.loggedProjects.clear();
    }
    if (!this.loggedProjects.has(projectKey)) {
      this.loggedProjects.add(projectKey);
      this.logger.info({
        event: 'ingest_refused',
        project_key: projectKey,
        status: refusal.kind === 'rate_limited' ? 429 : 402,
        reason: refusal.kind === 'rate_limited' ? refusal.window : 'monthly_quota',
        limit: refusal.limit,
      });
    }
    if (refusal.kind === 'rate_limited') entry.rateLimited++;
    else entry.quotaExceeded++;
    entry.lastMs = nowMs;
    entry.lastStatus = refusal.kind === 'rate_limited' ? 429 : 402;
    entry.reason = refusal.kind === 'rate_limited' ? refusal.window : 'monthly_quota';
    entry.limit = refusal.limit;
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /** Writes what was counted since the last flush (also called on shutdown). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (batch.length === 0) return this.flushing;
    const keys = batch.map((p) => RefusalLog.key(p.projectKey, p.minute));
    const args = batch.flatMap((p) => [p.rateLimited, p.quotaExceeded, p.lastMs, p.lastStatus, p.reason, p.limit].map(String));
    const ttl = String((REFUSAL_MINUTES + 1) * 60);
    this.flushing = this.flushing
      .then(() => this.redis.eval(FLUSH, keys.length, ...keys, ttl, ...args))
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ event: 'refusal_count_failed', projects: batch.length, err: error }),
      );
    return this.flushing;
  }

  /** The project's refusals in the current minute and the REFUSAL_MINUTES - 1 before it. */
  async recent(projectKey: string): Promise<RecentRefusals> {
    const minute = Math.floor(this.now() / 60_000);
    const minutes = Array.from({ length: REFUSAL_MINUTES }, (_, i) => minute - i);
    const hashes = await Promise.all(minutes.map((m) => this.redis.hgetall(RefusalLog.key(projectKey, m))));
    let rateLimited = 0;
    let quotaExceeded = 0;
    let last: Record<string, string> | undefined;
    for (const hash of hashes) {
      rateLimited += Number(hash.r ?? 0);
      quotaExceeded += Number(hash.q ?? 0);
      if (hash.t !== undefined && (last === undefined || Number(hash.t) > Number(last.t))) last = hash;
    }
    const reason = last?.w as RefusalReason | undefined;
    return {
      project_key: projectKey,
      since: new Date((minute - REFUSAL_MINUTES + 1) * 60_000).toISOString(),
      count: rateLimited + quotaExceeded,
      rate_limited: rateLimited,
      quota_exceeded: quotaExceeded,
      last:
        last === undefined || reason === undefined || !(reason in REASON_TEXT)
          ? null
          : {
              at: new Date(Number(last.t)).toISOString(),
              status: Number(last.s) === 402 ? 402 : 429,
              reason,
              limit: Number(last.l),
              message:
                reason === 'monthly_quota'
                  ? `monthly quota of ${Number(last.l)} events used up`
                  : `${REASON_TEXT[reason]} of ${Number(last.l)} ${reason === 'minute' ? 'events' : 'requests'} reached`,
            },
    };
  }
}

/** GET /api/v1/projects/:id/refusals's `data`. */
export const recentRefusalsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['project_key', 'since', 'count', 'rate_limited', 'quota_exceeded', 'last'],
  properties: {
    project_key: { type: 'string' },
    since: {
      type: 'string',
      format: 'date-time',
      description: `Start of the oldest minute counted: the current minute and the ${REFUSAL_MINUTES - 1} before it`,
    },
    count: { type: 'integer', description: 'Requests refused since then (429 and 402)' },
    rate_limited: { type: 'integer', description: 'Of which refused by a rate limit (429)' },
    quota_exceeded: { type: 'integer', description: 'Of which refused by the monthly quota (402)' },
    last: {
      description: 'The latest refusal since then; null when none',
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['at', 'status', 'reason', 'limit', 'message'],
          properties: {
            at: { type: 'string', format: 'date-time' },
            status: { type: 'integer', enum: [429, 402] },
            reason: {
              type: 'string',
              enum: Object.keys(REASON_TEXT),
              description: 'The limit that refused it: a rate window (minute: the burst limit, in events) or the monthly quota',
            },
            limit: { type: 'integer', description: 'That limit' },
            message: { type: 'string', description: 'The limit in words, for people' },
          },
        },
        { type: 'null' },
      ],
    },
  },
} as const;
