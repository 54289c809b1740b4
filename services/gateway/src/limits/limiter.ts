import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { windowsAt, type Windows } from './windows.ts';

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
  /** The project's revision the caller's cache holds; Redis says whether it is current. */
  revision: number;
  limits: LimitSet;
}

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

type LimitsCommand = (...args: (string | number)[]) => Promise<number[]>;

/**
 * Every limit of a request in one atomic Redis round trip (a Lua script):
 * per-minute burst (events), hourly project/account/global (requests) and the
 * monthly quota (events). All keys share the hash tag `{pbrl}` so the script
 * runs on Redis Cluster too (one slot). The clock is injectable for tests.
 */
export class Limiter {
  private readonly run: LimitsCommand;

  constructor(
    redis: Redis,
    /** Reads the stored monthly count when Redis lost the quota counter (restart) or a month begins. */
    private readonly loadMonthlyUsage: (projectKey: string, monthStart: Date) => Promise<number>,
    private readonly now: () => number = Date.now,
  ) {
    if (!('pulseboardLimits' in redis)) redis.defineCommand('pulseboardLimits', { numberOfKeys: 6, lua: SCRIPT });
    this.run = (redis as unknown as { pulseboardLimits: LimitsCommand }).pulseboardLimits.bind(redis);
  }

  static revisionKey(projectKey: string): string {
    return `{pbrl}:rev:${projectKey}`;
  }

  /** Checks and, when everything allows it, consumes. A refused request consumes nothing. */
  consume(subject: LimitSubject, events: number): Promise<LimitDecision> {
    return this.evaluate(subject, events, 'consume');
  }

  /** Decides as `consume` would, without consuming (for requests refused for other reasons). */
  check(subject: LimitSubject, events: number): Promise<LimitDecision> {
    return this.evaluate(subject, events, 'check');
  }

  /** Gives back what `consume` took when the request failed later (e.g. Kafka was down). */
  async refund(subject: LimitSubject, events: number, at: Windows): Promise<void> {
    await this.run(...this.keys(subject, at), String(subject.revision), events, 'refund', 0, 0, 0, 0, 0, 0, 0, 0, '');
  }

  /** Current usage of every window, consuming nothing. */
  async usage(subject: LimitSubject): Promise<{ usage: Usage; windows: Windows } | { kind: 'stale' }> {
    const decision = await this.evaluate(subject, 0, 'check');
    return decision.kind === 'stale' ? decision : { usage: decision.usage, windows: decision.windows };
  }

  private keys(subject: LimitSubject, w: Windows): string[] {
    const p = subject.projectKey;
    return [
      Limiter.revisionKey(p),
      `{pbrl}:m:${p}:${w.minute.id}`,
      `{pbrl}:hp:${p}:${w.hour.id}`,
      `{pbrl}:ha:${subject.accountId}:${w.hour.id}`,
      `{pbrl}:hg:${w.hour.id}`,
      `{pbrl}:q:${p}:${w.month.id}`,
    ];
  }

  private async evaluate(subject: LimitSubject, events: number, mode: 'consume' | 'check'): Promise<LimitDecision> {
    const w = windowsAt(this.now());
    const l = subject.limits;
    const args = (seed: string) => [
      ...this.keys(subject, w),
      String(subject.revision),
      events,
      mode,
      l.burst,
      l.projectHourly,
      l.accountHourly,
      l.globalHourly,
      l.monthlyQuota,
      w.minute.resetAt - w.nowSeconds + 5,
      w.hour.resetAt - w.nowSeconds + 60,
      w.month.resetAt - w.nowSeconds + 7 * 86400,
      seed,
    ];
    let result = await this.run(...args(''));
    if (result[0] === 2) result = await this.run(...args(String(await this.loadMonthlyUsage(subject.projectKey, w.month.start))));
    const [status, which, minute, projectHour, accountHour, globalHour, month] = result as [number, number, number, number, number, number, number];
    const usage: Usage = { minute, projectHour, accountHour, globalHour, month };
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
}
