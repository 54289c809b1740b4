import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RedisClient } from '../redis-client.ts';
import { PulseboardError } from '@pulseboard/contracts';
import {
  decisionOf,
  Limiter,
  LIMITER_HASH_TAG,
  type Outcome as LimitOutcome,
  type LimitDecision,
  type LimitEnforcer,
  type LimitSubject,
  type Usage,
} from './limiter.ts';
import { MicroBatcher } from './micro-batch.ts';
import type { RevisionWatch, WatchToken } from './revision-watch.ts';
import { windowsAt, type Windows } from './windows.ts';

const SCRIPT = readFileSync(new URL('./leases.lua', import.meta.url), 'utf8');

export interface LeaseOptions {
  /** How long this gateway spends a lease before giving back what is left (ms). */
  lifeMs: number;
  /** After how long Redis counts another gateway's lease as abandoned (ms): well past lifeMs. */
  abandonMs: number;
  /** A lease is sized to last this long at the rate last measured (ms). */
  periodMs: number;
  /** No lease is larger than this share of its limit. */
  maxShare: number;
}

export const DEFAULT_LEASE_OPTIONS: LeaseOptions = { lifeMs: 5000, abandonMs: 15_000, periodMs: 2000, maxShare: 1 / 16 };

/** Units this gateway holds of one counter (one window of one limit), spent from memory. */
interface Lease {
  remaining: number;
  /** What the counter has consumed, everyone's unspent leases excluded, as this gateway knows it. */
  used: number;
  granted: number;
  grantedAt: number;
  /** performance.now() past which this lease is not spent but given back. */
  expiresAt: number;
  /** The window's end on the limiter's clock: the lease lapses with it. */
  windowEndMs: number;
  /** The limit it was granted under, and where its size is kept: for a top-up. */
  limit: number;
  sizeKey: string;
}

/** A lease running this low is renewed by the next call made anyway (a top-up), before it runs out. */
const TOP_UP_BELOW = 1 / 4;

type Decide = { kind: 'decide'; subject: LimitSubject; events: number; mode: 'u' | 'c'; windows: Windows; seed: string };
type Refund = { kind: 'refund'; subject: LimitSubject; events: number; windows: Windows };
type Flush = { kind: 'flush' };
type Operation = Decide | Refund | Flush;
/** status, which and the five counters' usage, as limits.lua answers (status 0 also for refunds and flushes). */
type Outcome = LimitOutcome;

type LeasesCommand = (numberOfKeys: number, ...args: string[]) => Promise<string>;

const KINDS = 5;

/**
 * The limits of limiter.ts, spent from leases. A remote decision (one Lua
 * call per micro-batch, leases.lua) checks and consumes as the exact limiter
 * does and also grants this gateway a lease of each counter it touched: units
 * added to the counter now and spent from memory by later requests, with no
 * Redis round trip, while the project's revision is known current (Redis
 * pushes every revision change: revision-watch.ts). A request the leases do
 * not cover goes to Redis, never refused from memory.
 *
 * The invariant: every counter = consumed + the unspent leases of every
 * gateway. A remote decision first gives back this gateway's unspent lease of
 * each counter it touches, then refuses a request only if it does not fit
 * beside the other gateways' live leases (counted as spent: their holders may
 * be spending them), and a lease is never larger than what the limit leaves.
 * - One gateway: there are no other leases, so every decision is the exact
 *   limiter's (a lease only admits what fits under the limit, and what a lease
 *   does not cover is decided against the counter less that lease), in
 *   arrival order: a request goes ahead of one queued for Redis only when its
 *   leases cover both (queuedNeeds), so neither decision changes.
 * - N gateways: live gateways never over-admit (their leases are reserved), but
 *   a request may be refused while another gateway holds the last units, until
 *   it spends them or gives them back (lifeMs, at most). A lease whose holder
 *   crashed or lost Redis counts as unspent once abandonMs has passed since its
 *   grant, so a limit may then be over-admitted by what that holder spent of
 *   its lease: at most one lease per gateway, each at most maxShare of the
 *   limit and never more than what remained when it was granted.
 * Leases are sized from the rate measured over the previous one (periodMs of
 * it), renewed by whatever call comes next once mostly spent (top-ups: one
 * call renews every lease running low), given back when their life ends, when
 * a request they cannot cover goes to Redis, and on drain; a window's end
 * lets them lapse with the counter.
 * Usage figures (headers, GET /rate_limits) are the counters less every unspent
 * lease: exact with one gateway, with N an undercount by at most the other
 * gateways' unspent leases.
 */
export class LeasedLimiter implements LimitEnforcer {
  readonly id = randomBytes(8).toString('hex');
  private readonly run: LeasesCommand;
  private readonly batcher: MicroBatcher<Operation, Outcome>;
  private readonly leases = new Map<string, Lease>();
  /** Lease size wanted next, per limit and subject (not per window, so a new window starts sized). */
  private readonly sizes = new Map<string, number>();
  /** Units to give back with the next call (expired leases, or a call that failed). */
  private readonly returns = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<string>>();
  private readonly timer: NodeJS.Timeout;
  /**
   * Units the decisions queued for Redis need of each counter. A later request is decided from a
   * lease ahead of them only if the lease covers them too: then each of them, and it, is decided
   * as in arrival order.
   */
  private readonly queuedNeeds = new Map<string, number>();
  /** Calls to Redis so far (the bench's round trips). */
  calls = 0;

  constructor(
    redis: RedisClient,
    private readonly loadMonthlyUsage: (projectKey: string, monthStart: Date) => Promise<number>,
    private readonly watch: RevisionWatch,
    private readonly now: () => number = Date.now,
    /** Told the operations of each Redis call (not of batches decided from leases alone). */
    private readonly observeBatch?: (size: number) => void,
    private readonly options: LeaseOptions = DEFAULT_LEASE_OPTIONS,
  ) {
    if (!('pulseboardLeasesBatch' in redis)) redis.defineCommand('pulseboardLeasesBatch', { lua: SCRIPT });
    this.run = (redis as unknown as { pulseboardLeasesBatch: LeasesCommand }).pulseboardLeasesBatch.bind(redis);
    this.batcher = new MicroBatcher((ops) => this.execute(ops), 500);
    this.timer = setInterval(() => this.expire(), Math.max(50, Math.floor(options.lifeMs / 8))).unref();
  }

  /** The hash beside a counter that records each gateway's lease of it ({pbrl}:l:<the counter's own key>). */
  static leasesKey(counterKey: string): string {
    return `${LIMITER_HASH_TAG}:l:${counterKey.slice(LIMITER_HASH_TAG.length + 1)}`;
  }

  consume(subject: LimitSubject, events: number): Promise<LimitDecision> {
    const windows = windowsAt(this.now());
    return Promise.resolve(this.fromLeases(subject, events, windows, true, true) ?? this.remote(subject, events, 'u', windows));
  }

  check(subject: LimitSubject, events: number): Promise<LimitDecision> {
    const windows = windowsAt(this.now());
    return Promise.resolve(this.fromLeases(subject, events, windows, false, true) ?? this.remote(subject, events, 'c', windows));
  }

  async refund(subject: LimitSubject, events: number, at: Windows): Promise<void> {
    const held = Limiter.counterKeys(subject, at).map((key) => this.leases.get(key));
    // Into the lease when this gateway holds all five: it only frees units, whatever is queued.
    if (held.every((lease) => lease !== undefined)) {
      held.forEach((lease, k) => {
        const units = amount(k, events);
        lease.remaining += units;
        lease.used = Math.max(0, lease.used - units);
      });
      return;
    }
    await this.queue({ kind: 'refund', subject, events, windows: at });
  }

  async usage(subject: LimitSubject): Promise<{ usage: Usage; windows: Windows } | { kind: 'stale' }> {
    const decision = await this.check(subject, 0);
    return decision.kind === 'stale' ? decision : { usage: decision.usage, windows: decision.windows };
  }

  /** Gives back every lease (graceful stop); later requests still work, from Redis. */
  async drain(): Promise<void> {
    clearInterval(this.timer);
    for (const [key, lease] of this.leases) this.giveBack(key, lease);
    this.leases.clear();
    if (this.returns.size > 0) await this.batcher.submit({ kind: 'flush' });
  }

  /** Units of every lease this gateway holds now (tests, bench). */
  held(): number {
    let units = 0;
    for (const lease of this.leases.values()) units += lease.remaining;
    return units;
  }

  private fromLeases(subject: LimitSubject, events: number, w: Windows, spend: boolean, behindQueue: boolean): LimitDecision | undefined {
    if (!this.watch.current(subject.revisionKey, subject.revision)) return undefined;
    const at = performance.now();
    const held: Lease[] = [];
    for (const key of Limiter.counterKeys(subject, w)) {
      const lease = this.leases.get(key);
      const ahead = behindQueue ? (this.queuedNeeds.get(key) ?? 0) : 0;
      if (lease === undefined || lease.expiresAt <= at || lease.remaining < amount(held.length, events) + ahead) return undefined;
      held.push(lease);
    }
    if (spend) {
      held.forEach((lease, k) => {
        const units = amount(k, events);
        lease.remaining -= units;
        lease.used += units;
      });
    }
    const [minute, projectHour, accountHour, globalHour, month] = held.map((lease) => lease.used) as [number, number, number, number, number];
    return { kind: 'allowed', usage: { minute, projectHour, accountHour, globalHour, month }, windows: w };
  }

  private async remote(subject: LimitSubject, events: number, mode: 'u' | 'c', windows: Windows): Promise<LimitDecision> {
    let outcome = await this.queue({ kind: 'decide', subject, events, mode, windows, seed: '' });
    // No quota counter in Redis this month (a restart, or a new month): start it from Postgres' count.
    if (outcome[0] === 2) outcome = await this.queue({ kind: 'decide', subject, events, mode, windows, seed: await this.seed(subject.projectKey, windows) });
    return decisionOf(outcome, subject, windows);
  }

  private async queue(op: Decide | Refund): Promise<Outcome> {
    const keys = op.kind === 'decide' ? Limiter.counterKeys(op.subject, op.windows) : [];
    keys.forEach((key, k) => this.queuedNeeds.set(key, (this.queuedNeeds.get(key) ?? 0) + amount(k, op.events)));
    try {
      return await this.batcher.submit(op);
    } finally {
      keys.forEach((key, k) => {
        const left = (this.queuedNeeds.get(key) ?? 0) - amount(k, op.events);
        if (left > 0) this.queuedNeeds.set(key, left);
        else this.queuedNeeds.delete(key);
      });
    }
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

  /** Leases past their life go back to Redis; those of ended windows lapse with their counters. */
  private expire(): void {
    const at = performance.now();
    const nowMs = this.now();
    for (const [key, lease] of this.leases) {
      if (lease.windowEndMs <= nowMs) this.leases.delete(key);
      else if (lease.expiresAt <= at) {
        this.leases.delete(key);
        this.giveBack(key, lease);
      }
    }
    if (this.sizes.size > 100_000) this.sizes.clear();
    if (this.returns.size > 0) this.batcher.submit({ kind: 'flush' }).catch(() => undefined);
  }

  /** Queues a lease's unspent units for the next call; even zero clears this gateway's record of it. */
  private giveBack(key: string, lease: Lease): void {
    this.returns.set(key, (this.returns.get(key) ?? 0) + lease.remaining);
  }

  /** The next lease wanted for counter k of a subject, from how fast the last one went. */
  private nextSize(sizeKey: string, lease: Lease | undefined, limit: number, at: number): number {
    let size = this.sizes.get(sizeKey) ?? 1;
    if (lease !== undefined) {
      const spent = lease.granted - lease.remaining;
      const elapsed = Math.max(1, at - lease.grantedAt);
      size = spent >= lease.granted && elapsed < this.options.periodMs ? lease.granted * 2 : Math.ceil((spent * this.options.periodMs) / elapsed);
    }
    size = Math.min(Math.max(1, Math.floor(limit * this.options.maxShare)), Math.max(1, size));
    this.sizes.set(sizeKey, size);
    return size;
  }

  private async execute(ops: Operation[]): Promise<Outcome[]> {
    const results: Outcome[] = [];
    const remote: number[] = [];
    // Requests that queued while the last call was in flight may be covered by what it granted,
    // in arrival order: from the first that is not, everything goes to Redis.
    let inOrder = true;
    ops.forEach((op, i) => {
      const local = inOrder && op.kind === 'decide' && op.seed === '' ? this.fromLeases(op.subject, op.events, op.windows, op.mode === 'u', false) : undefined;
      if (local?.kind === 'allowed')
        results[i] = [0, 0, local.usage.minute, local.usage.projectHour, local.usage.accountHour, local.usage.globalHour, local.usage.month];
      else if (op.kind === 'flush') results[i] = [0, 0, 0, 0, 0, 0, 0];
      else {
        inOrder = false;
        remote.push(i);
      }
    });
    if (remote.length === 0 && this.returns.size === 0) return results;

    const at = performance.now();
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
    // Which decision in this call asks for each counter's lease: the last to touch it, so that
    // no decision in the call sees a lease of this gateway's own granted before it.
    const lastDecision = new Map<string, number>();
    for (const i of remote) {
      const op = ops[i]!;
      if (op.kind === 'decide') for (const key of Limiter.counterKeys(op.subject, op.windows)) lastDecision.set(key, i);
    }
    // What this gateway holds of every counter a decision touches goes back first.
    const taken = new Map<string, Lease | undefined>();
    for (const key of lastDecision.keys()) {
      const lease = this.leases.get(key);
      taken.set(key, lease);
      this.leases.delete(key);
      this.returns.set(key, (this.returns.get(key) ?? 0) + (lease?.remaining ?? 0));
    }
    // Leases running low ride along: one call renews them instead of one call each later.
    const topUps: { key: string; lease: Lease; wanted: number }[] = [];
    for (const [key, lease] of this.leases) {
      if (lease.remaining > lease.granted * TOP_UP_BELOW || lease.expiresAt <= at) continue;
      this.leases.delete(key);
      this.giveBack(key, lease);
      topUps.push({ key, lease, wanted: this.nextSize(lease.sizeKey, lease, lease.limit, at) });
    }
    const returning = new Map(this.returns);
    this.returns.clear();

    const packed: (number | string)[][] = [];
    const tokens: WatchToken[] = [];
    const ttlByKey = new Map<string, number>();
    for (const i of remote) {
      const op = ops[i] as Decide | Refund;
      const w = op.windows;
      const [rev, ...counters] = Limiter.keys(op.subject, w);
      const hourTtl = w.hour.resetAt - w.nowSeconds + 60;
      const counterTtls = [w.minute.resetAt - w.nowSeconds + 5, hourTtl, hourTtl, hourTtl, w.month.resetAt - w.nowSeconds + 7 * 86400];
      counters.forEach((key, k) => ttlByKey.set(key, counterTtls[k]!));
      const l = op.subject.limits;
      const limits = [l.burst, l.projectHourly, l.accountHourly, l.globalHourly, l.monthlyQuota];
      const wanted = counters.map((key, k) =>
        op.kind === 'decide' && op.mode === 'u' && lastDecision.get(key) === i ? this.nextSize(sizeKey(op.subject, k), taken.get(key), limits[k]!, at) : 0,
      );
      tokens.push(this.watch.token(op.subject.revisionKey));
      packed.push([
        slot(rev, 0),
        ...counters.map((key, k) => slot(key, counterTtls[k]!)),
        ...counters.map((key, k) => slot(LeasedLimiter.leasesKey(key), counterTtls[k]!)),
        String(op.subject.revision),
        op.events,
        op.kind === 'refund' ? 'r' : op.mode,
        ...limits,
        op.kind === 'decide' ? op.seed : '',
        ...wanted,
      ]);
    }
    const topUpList = topUps.map(({ key, lease, wanted }) => [slot(key, 60), slot(LeasedLimiter.leasesKey(key), 60), lease.limit, wanted]);
    const returnList = [...returning].map(([key, units]) => {
      // A counter returned by itself (an expired lease): its ttl if the call creates it matters not, it is never created.
      const ttl = ttlByKey.get(key) ?? 60;
      return [slot(key, ttl), slot(LeasedLimiter.leasesKey(key), ttl), units];
    });

    let flat: number[];
    try {
      this.calls++;
      this.observeBatch?.(remote.length);
      const reply = await this.run(
        keys.length,
        ...keys,
        JSON.stringify(ttls),
        this.id,
        String(this.options.abandonMs),
        JSON.stringify(returnList),
        JSON.stringify(packed),
        JSON.stringify(topUpList),
      );
      flat = JSON.parse(reply) as number[];
    } catch (error) {
      // Nothing was applied: what was being given back is given back with the next call.
      for (const [key, units] of returning) this.returns.set(key, (this.returns.get(key) ?? 0) + units);
      throw new PulseboardError('limiter_unavailable', { message: 'the rate limiter (Redis) is unavailable', cause: error });
    }
    topUps.forEach(({ key, lease }, n) => {
      const [used, granted] = flat.slice(remote.length * 12 + n * 2, remote.length * 12 + n * 2 + 2) as [number, number];
      if (granted > 0) this.leases.set(key, { ...lease, remaining: granted, used, granted, grantedAt: at, expiresAt: at + this.options.lifeMs });
    });
    remote.forEach((i, n) => {
      const op = ops[i] as Decide | Refund;
      const row = flat.slice(n * 12, n * 12 + 12);
      results[i] = row.slice(0, 7) as Outcome;
      if (op.kind !== 'decide') return;
      const status = row[0]!;
      if (status === 1) this.watch.forget(op.subject.revisionKey);
      else if (status !== 2) this.watch.confirm(op.subject.revisionKey, op.subject.revision, tokens[n]!);
      Limiter.counterKeys(op.subject, op.windows).forEach((key, k) => {
        const granted = row[7 + k]!;
        if (granted <= 0) return;
        this.leases.set(key, {
          remaining: granted,
          used: row[2 + k]!,
          granted,
          grantedAt: at,
          expiresAt: at + this.options.lifeMs,
          windowEndMs: windowEnd(op.windows, k),
          limit: limitOf(op.subject, k),
          sizeKey: sizeKey(op.subject, k),
        });
      });
    });
    return results;
  }
}

/** Units a request takes of counter k: events of the minute and the quota, one request of each hour. */
function amount(k: number, events: number): number {
  return k === 0 || k === KINDS - 1 ? events : 1;
}

function sizeKey(subject: LimitSubject, k: number): string {
  if (k === 2) return `a:${subject.accountId}`;
  if (k === 3) return 'g';
  return `${k}:${subject.projectKey}`;
}

function limitOf(subject: LimitSubject, k: number): number {
  const l = subject.limits;
  return [l.burst, l.projectHourly, l.accountHourly, l.globalHourly, l.monthlyQuota][k]!;
}

function windowEnd(w: Windows, k: number): number {
  if (k === 0) return w.minute.resetAt * 1000;
  if (k === KINDS - 1) return w.month.resetAt * 1000;
  return w.hour.resetAt * 1000;
}
