import { readFileSync } from 'node:fs';
import type { RedisClient } from '../redis-client.ts';
import { PulseboardError } from '@pulseboard/contracts';
import { windowsAt, type Windows } from './windows.ts';
import { MicroBatcher } from './micro-batch.ts';

const SCRIPT = readFileSync(new URL('./limits.lua', import.meta.url), 'utf8');

/** The limits that apply to one project's request, resolved from project, account and environment. */
export interface LimitSet {
  burst: number;
  projectHourly: number;
  accountHourly: number;
  globalHourly: number;
  monthlyQuota: number;
}

export interface LimitSubject {
  projectKey: string;
  accountId: number;
  /**
   * A fence the caller owns (auth: the project's revision key, and the revision
   * its cache holds): the script decides nothing and answers `stale` unless
   * Redis holds exactly this value there. The key must carry LIMITER_HASH_TAG.
   */
  revisionKey: string;
  revision: number;
  limits: LimitSet;
}

/** Every key the limiter's script touches carries this hash tag, so on Redis Cluster they share one slot. */
export const LIMITER_HASH_TAG = '{pbrl}';

export interface Usage {
  minute: number;
  projectHour: number;
  accountHour: number;
  globalHour: number;
  month: number;
}

export type RateWindow = 'minute' | 'project_hour' | 'account_hour' | 'global_hour';

export type LimitDecision =
  | { kind: 'allowed'; usage: Usage; windows: Windows }
  | { kind: 'rate_limited'; window: RateWindow; used: number; limit: number; retryAfter: number; resetAt: number; usage: Usage; windows: Windows }
  | { kind: 'quota_exceeded'; used: number; limit: number; resetAt: Date; usage: Usage; windows: Windows }
  | { kind: 'stale' };

const WINDOW_BY_CODE: Record<number, RateWindow> = { 1: 'minute', 2: 'project_hour', 3: 'account_hour', 4: 'global_hour' };

/** What the ingest path needs of a limiter: the exact one (this file) or one spending leases (leased-limiter.ts). */
export interface LimitEnforcer {
  /** Checks and, when everything allows it, consumes. A refused request consumes nothing. */
  consume(subject: LimitSubject, events: number): Promise<LimitDecision>;
  /** Decides as `consume` would, without consuming (for requests refused for other reasons). */
  check(subject: LimitSubject, events: number): Promise<LimitDecision>;
  /** Gives back what `consume` took when the request failed later (e.g. Kafka was down). */
  refund(subject: LimitSubject, events: number, at: Windows): Promise<void>;
  /** Current usage of every window, consuming nothing. */
  usage(subject: LimitSubject): Promise<{ usage: Usage; windows: Windows } | { kind: 'stale' }>;
}

type Mode = 'c' | 'u' | 'r';
interface Operation {
  subject: LimitSubject;
  events: number;
  mode: Mode;
  windows: Windows;
  seed: string;
}
export type Outcome = [status: number, which: number, minute: number, projectHour: number, accountHour: number, globalHour: number, month: number];

type LimitsCommand = (numberOfKeys: number, ...args: string[]) => Promise<string>;

/**
 * Every limit of a request, atomically: per-minute burst (events), hourly
 * project/account/global (requests) and the monthly quota (events). Concurrent
 * requests are decided together by one Lua call (see micro-batch.ts), each still
 * all or nothing. All keys share the hash tag LIMITER_HASH_TAG, so the script runs on
 * Redis Cluster too (one slot). The clock is injectable for tests.
 */
export class Limiter implements LimitEnforcer {
  private readonly run: LimitsCommand;
  private readonly batcher: MicroBatcher<Operation, Outcome>;
  private readonly seeding = new Map<string, Promise<string>>();

  constructor(
    redis: RedisClient,
    /** Reads the stored monthly count when Redis lost the quota counter (restart) or a month begins. */
    private readonly loadMonthlyUsage: (projectKey: string, monthStart: Date) => Promise<number>,
    private readonly now: () => number = Date.now,
    observeBatch?: (size: number) => void,
  ) {
    if (!('pulseboardLimitsBatch' in redis)) redis.defineCommand('pulseboardLimitsBatch', { lua: SCRIPT });
    this.run = (redis as unknown as { pulseboardLimitsBatch: LimitsCommand }).pulseboardLimitsBatch.bind(redis);
    this.batcher = new MicroBatcher((ops) => this.execute(ops), 500, observeBatch);
  }

  /** The Redis keys of a request's fence and counters in the given windows (fence first, quota last). */
  static keys(
    subject: Pick<LimitSubject, 'projectKey' | 'accountId' | 'revisionKey'>,
    w: Windows,
  ): [rev: string, minute: string, projectHour: string, accountHour: string, globalHour: string, quota: string] {
    const p = subject.projectKey;
    return [
      subject.revisionKey,
      `${LIMITER_HASH_TAG}:m:${p}:${w.minute.id}`,
      `${LIMITER_HASH_TAG}:hp:${p}:${w.hour.id}`,
      `${LIMITER_HASH_TAG}:ha:${subject.accountId}:${w.hour.id}`,
      `${LIMITER_HASH_TAG}:hg:${w.hour.id}`,
      `${LIMITER_HASH_TAG}:q:${p}:${w.month.id}`,
    ];
  }

  /** The five counters' keys (minute, project hour, account hour, global hour, quota). */
  static counterKeys(subject: Pick<LimitSubject, 'projectKey' | 'accountId' | 'revisionKey'>, w: Windows): string[] {
    return Limiter.keys(subject, w).slice(1);
  }

  /** Checks and, when everything allows it, consumes. A refused request consumes nothing. */
  consume(subject: LimitSubject, events: number): Promise<LimitDecision> {
    return this.evaluate(subject, events, 'u');
  }

  /** Decides as `consume` would, without consuming (for requests refused for other reasons). */
  check(subject: LimitSubject, events: number): Promise<LimitDecision> {
    return this.evaluate(subject, events, 'c');
  }

  /** Gives back what `consume` took when the request failed later (e.g. Kafka was down). */
  async refund(subject: LimitSubject, events: number, at: Windows): Promise<void> {
    await this.batcher.submit({ subject, events, mode: 'r', windows: at, seed: '' });
  }

  /** Current usage of every window, consuming nothing. */
  async usage(subject: LimitSubject): Promise<{ usage: Usage; windows: Windows } | { kind: 'stale' }> {
    const decision = await this.evaluate(subject, 0, 'c');
    return decision.kind === 'stale' ? decision : { usage: decision.usage, windows: decision.windows };
  }

  private async evaluate(subject: LimitSubject, events: number, mode: Mode): Promise<LimitDecision> {
    const windows = windowsAt(this.now());
    let outcome = await this.batcher.submit({ subject, events, mode, windows, seed: '' });
    // Redis has no quota counter for this month (a restart, or a new month): start it from
    // what Postgres holds, never from zero; the script seeds it only if still missing.
    if (outcome[0] === 2) outcome = await this.batcher.submit({ subject, events, mode, windows, seed: await this.seed(subject.projectKey, windows) });
    return decisionOf(outcome, subject, windows);
  }

  private seed(projectKey: string, w: Windows): Promise<string> {
    const id = `${projectKey}:${w.month.id}`;
    let pending = this.seeding.get(id);
    if (pending === undefined) {
      pending = this.loadMonthlyUsage(projectKey, w.month.start).then(String);
      this.seeding.set(id, pending);
      void pending.finally(() => this.seeding.delete(id)).catch(() => undefined);
    }
    return pending;
  }

  private async execute(ops: Operation[]): Promise<Outcome[]> {
    const keys: string[] = [];
    const ttls: number[] = [];
    const index = new Map<string, number>();
    const slot = (key: string, ttl: number): number => {
      let i = index.get(key);
      if (i === undefined) {
        keys.push(key);
        ttls.push(ttl);
        i = keys.length;
        index.set(key, i);
      } else if (ttl > ttls[i - 1]!) {
        ttls[i - 1] = ttl;
      }
      return i;
    };
    const packed: (number | string)[][] = [];
    for (const { subject, events, mode, windows: w, seed } of ops) {
      const [rev, minute, projectHour, accountHour, globalHour, quota] = Limiter.keys(subject, w);
      // Counters outlive their window a little, so a late refund still finds them.
      const hourTtl = w.hour.resetAt - w.nowSeconds + 60;
      const l = subject.limits;
      packed.push([
        slot(rev, 0),
        slot(minute, w.minute.resetAt - w.nowSeconds + 5),
        slot(projectHour, hourTtl),
        slot(accountHour, hourTtl),
        slot(globalHour, hourTtl),
        slot(quota, w.month.resetAt - w.nowSeconds + 7 * 86400),
        // A string: the script compares it with the revision Redis holds, which is text.
        String(subject.revision),
        events,
        mode,
        l.burst,
        l.projectHourly,
        l.accountHourly,
        l.globalHourly,
        l.monthlyQuota,
        seed,
      ]);
    }
    let flat: number[];
    try {
      const reply = await this.run(keys.length, ...keys, JSON.stringify(ttls), JSON.stringify(packed));
      flat = JSON.parse(reply) as number[];
    } catch (error) {
      throw new PulseboardError('limiter_unavailable', { message: 'the rate limiter (Redis) is unavailable', cause: error });
    }
    const outcomes: Outcome[] = [];
    for (let i = 0; i < ops.length; i++) outcomes.push(flat.slice(i * 7, i * 7 + 7) as Outcome);
    return outcomes;
  }
}

/** A decision from the script's answer for one operation (limits.lua, leases.lua). */
export function decisionOf(outcome: Outcome, subject: LimitSubject, w: Windows): LimitDecision {
  const [status, which, minute, projectHour, accountHour, globalHour, month] = outcome;
  const usage: Usage = { minute, projectHour, accountHour, globalHour, month };
  const l = subject.limits;
  switch (status) {
    case 0:
      return { kind: 'allowed', usage, windows: w };
    case 1:
      return { kind: 'stale' };
    case 3: {
      const window = WINDOW_BY_CODE[which] ?? 'minute';
      const resetAt = window === 'minute' ? w.minute.resetAt : w.hour.resetAt;
      const used = { minute, project_hour: projectHour, account_hour: accountHour, global_hour: globalHour }[window];
      const limit = { minute: l.burst, project_hour: l.projectHourly, account_hour: l.accountHourly, global_hour: l.globalHourly }[window];
      return { kind: 'rate_limited', window, used, limit, resetAt, retryAfter: Math.max(1, resetAt - w.nowSeconds), usage, windows: w };
    }
    case 4:
      return { kind: 'quota_exceeded', used: month, limit: l.monthlyQuota, resetAt: new Date(w.month.resetAt * 1000), usage, windows: w };
    default:
      throw new Error(`unexpected limiter status ${String(status)}`);
  }
}
