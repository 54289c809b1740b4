import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { TEST_REDIS_URL, uniqueName, waitFor } from '@pulseboard/test-kit';
import { revisionKey } from '../auth/revision.ts';
import { DEFAULT_LEASE_OPTIONS, LeasedLimiter, type LeaseOptions } from './leased-limiter.ts';
import { Limiter, type LimitDecision, type LimitSubject } from './limiter.ts';
import { RevisionWatch } from './revision-watch.ts';
import { windowsAt } from './windows.ts';

// The leased limiter against the real Redis (database 1). Each test runs in an hour of its own,
// far in the future, so the counters every project shares (global hour) start from zero.
const redis = new Redis(TEST_REDIS_URL);
const logger = pino({ level: 'silent' });
const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
  redis.disconnect();
});

function privateHour(): number {
  return Date.UTC(2300, 0, 1) + Math.floor(Math.random() * 24 * 365 * 500) * 3_600_000 + 5_000;
}

async function subject(limits: Partial<LimitSubject['limits']> = {}): Promise<LimitSubject> {
  const projectKey = uniqueName('lease');
  await redis.set(revisionKey(projectKey), '1');
  return {
    projectKey,
    revisionKey: revisionKey(projectKey),
    accountId: Math.floor(Math.random() * 1e9) + 1e9,
    revision: 1,
    limits: { burst: 1_000_000, projectHourly: 1_000_000, accountHourly: 1e8, globalHourly: 1e9, monthlyQuota: 1_000_000, ...limits },
  };
}

/** One gateway's leased limiter, with a revision watch of its own. */
async function gateway(now: () => number, monthly = 0, options: Partial<LeaseOptions> = {}) {
  const watch = new RevisionWatch(redis, logger);
  await watch.start();
  const limiter = new LeasedLimiter(redis, async () => monthly, watch, now, undefined, { ...DEFAULT_LEASE_OPTIONS, ...options });
  closers.push(() => watch.stop());
  return { limiter, watch };
}

function summary(d: LimitDecision) {
  if (d.kind === 'stale') return d;
  const base = { kind: d.kind, usage: d.usage };
  if (d.kind === 'rate_limited') return { ...base, window: d.window, used: d.used, limit: d.limit, retryAfter: d.retryAfter };
  if (d.kind === 'quota_exceeded') return { ...base, used: d.used, limit: d.limit };
  return base;
}

/** Deterministic pseudo-random steps, the same for both limiters. */
function steps(count: number, seed: number): { op: 'consume' | 'check' | 'refund' | 'burst' | 'tick'; events: number }[] {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  return Array.from({ length: count }, () => {
    const r = next();
    const events = 1 + Math.floor(next() * 4);
    if (r < 0.7) return { op: 'consume', events };
    if (r < 0.8) return { op: 'check', events };
    if (r < 0.87) return { op: 'refund', events };
    if (r < 0.95) return { op: 'burst', events };
    return { op: 'tick', events };
  });
}

describe('LeasedLimiter: limits from leases', () => {
  it('decides exactly as the exact limiter with one gateway, through burst, hourly and quota refusals, refunds and window changes', async () => {
    const limits = { burst: 40, projectHourly: 120, accountHourly: 150, monthlyQuota: 300 };
    const exactClock = { t: privateHour() };
    const leasedClock = { t: exactClock.t + 3_600_000 * 24 * 40 };
    const exact = new Limiter(
      redis,
      async () => 0,
      () => exactClock.t,
    );
    const { limiter: leased } = await gateway(() => leasedClock.t);
    const a = await subject(limits);
    const b = await subject(limits);
    // Each takes the steps in its own private hours; the minute changes on `tick`.
    let leasedCalls = 0;
    let requests = 0;
    for (const step of steps(600, 7)) {
      const run = async (limiter: Limiter | LeasedLimiter, s: LimitSubject): Promise<unknown> => {
        if (step.op === 'consume') return summary(await limiter.consume(s, step.events));
        if (step.op === 'check') return summary(await limiter.check(s, step.events));
        if (step.op === 'burst') return (await Promise.all([1, 2, 3, 1, 2].map((n) => limiter.consume(s, n)))).map(summary);
        if (step.op === 'refund') {
          const taken = await limiter.consume(s, step.events);
          if (taken.kind === 'allowed') await limiter.refund(s, step.events, taken.windows);
          const usage = await limiter.usage(s);
          return [summary(taken), 'kind' in usage ? usage : usage.usage];
        }
        return null;
      };
      if (step.op === 'tick') {
        exactClock.t += 61_000;
        leasedClock.t += 61_000;
        continue;
      }
      requests += step.op === 'burst' ? 5 : step.op === 'refund' ? 2 : 1;
      const want = await run(exact, a);
      const before = leased.calls;
      const got = await run(leased, b);
      leasedCalls += leased.calls - before;
      expect(got).toEqual(want);
    }
    // Usage read back at the end, then after the leases went back: the same figures.
    const exactUsage = await exact.usage(a);
    if ('kind' in exactUsage) throw new Error('stale');
    expect(await leased.usage(b)).toMatchObject({ usage: exactUsage.usage });
    await leased.drain();
    const w = windowsAt(leasedClock.t);
    const counters = await redis.mget(...Limiter.counterKeys(b, w));
    const u = exactUsage.usage;
    expect(counters.map(Number)).toEqual([u.minute, u.projectHour, u.accountHour, Number(counters[3]), u.month]);
    // Small limits keep the leases small (and every refused request goes to Redis): still some are decided in memory.
    expect(leasedCalls).toBeLessThan(requests);
  });

  it('spends a lease from memory: a steady run of requests costs a few Redis calls', async () => {
    const clock = privateHour();
    const { limiter } = await gateway(() => clock);
    const s = await subject();
    for (let i = 0; i < 2_000; i++) expect((await limiter.consume(s, 1)).kind).toBe('allowed');
    expect(limiter.calls).toBeLessThan(40);
    const usage = await limiter.usage(s);
    expect(usage).toMatchObject({ usage: { minute: 2_000, projectHour: 2_000, month: 2_000 } });
  });

  it('takes no lease larger than what a nearly used quota leaves, and never overshoots it', async () => {
    const clock = privateHour();
    const s = await subject({ monthlyQuota: 1_000 });
    const one = await gateway(() => clock, 990);
    const two = await gateway(() => clock, 990);
    const first = await one.limiter.consume(s, 1);
    expect(first).toMatchObject({ kind: 'allowed', usage: { month: 991 } });
    const [, , , , , quota] = Limiter.keys(s, windowsAt(clock));
    const leases = await redis.hgetall(LeasedLimiter.leasesKey(quota));
    expect(Number(leases[one.limiter.id] ?? 0)).toBeLessThanOrEqual(9);
    // Both gateways race for the last nine events; exactly nine go through, never a tenth.
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).limiter.consume(s, 1)));
    expect(results.filter((d) => d.kind === 'allowed').length).toBeLessThanOrEqual(9);
    const refused = results.filter((d) => d.kind === 'quota_exceeded');
    expect(refused.length).toBeGreaterThan(0);
    // What either still holds goes back; then the two together admit exactly what remains.
    await Promise.all([one.limiter.drain(), two.limiter.drain()]);
    let admitted = results.filter((d) => d.kind === 'allowed').length;
    for (let i = 0; i < 20; i++) if ((await (i % 2 === 0 ? one : two).limiter.consume(s, 1)).kind === 'allowed') admitted++;
    expect(admitted).toBe(9);
    expect(Number(await redis.get(quota))).toBe(1_000);
  });

  it('two gateways under a burst admit no more than the limit plus one lease per gateway (measured)', async () => {
    const clock = privateHour();
    const burst = 400;
    const s = await subject({ burst });
    const one = await gateway(() => clock);
    const two = await gateway(() => clock);
    const bound = Math.floor(burst * DEFAULT_LEASE_OPTIONS.maxShare);
    let admitted = 0;
    await Promise.all(
      [one, two].map(async (g) => {
        for (let round = 0; round < 30; round++) {
          const decisions = await Promise.all(Array.from({ length: 20 }, () => g.limiter.consume(s, 1)));
          admitted += decisions.filter((d) => d.kind === 'allowed').length;
        }
      }),
    );
    console.log(`two gateways, burst ${burst}: ${admitted} admitted, over-admission ${admitted - burst} (bound ${bound})`);
    expect(admitted).toBeLessThanOrEqual(burst + bound);
    // And no under-admission left behind: once both gave back their leases, the limit is reached exactly.
    await Promise.all([one.limiter.drain(), two.limiter.drain()]);
    for (let i = admitted; i < burst + 5; i++) if ((await one.limiter.consume(s, 1)).kind === 'allowed') admitted++;
    expect(admitted).toBe(burst);
  });

  it("counts a crashed gateway's lease as unspent once abandoned: over-admission of at most that lease", async () => {
    const clock = privateHour();
    const burst = 160;
    const s = await subject({ burst });
    const options = { abandonMs: 300, lifeMs: 60_000 };
    const crashed = await gateway(() => clock, 0, options);
    const survivor = await gateway(() => clock, 0, options);
    // The first gateway takes a lease and spends some of it, then dies holding it (no return).
    for (let i = 0; i < 40; i++) await crashed.limiter.consume(s, 1);
    const [, minute] = Limiter.keys(s, windowsAt(clock));
    const lease = Number((await redis.hgetall(LeasedLimiter.leasesKey(minute)))[crashed.limiter.id] ?? 0);
    expect(lease).toBeGreaterThan(0);
    expect(lease).toBeLessThanOrEqual(Math.floor(burst * DEFAULT_LEASE_OPTIONS.maxShare));
    crashed.watch.stop();
    const spentByCrashed = 40;
    // While the lease is live the survivor treats it as spent, so it stops short of the limit.
    let admitted = 0;
    while ((await survivor.limiter.consume(s, 1)).kind === 'allowed') admitted++;
    expect(spentByCrashed + admitted).toBeLessThanOrEqual(burst);
    // Abandoned, it counts as unspent: the survivor admits up to the limit, overshooting by at most that lease.
    await new Promise((resolve) => setTimeout(resolve, 350));
    while ((await survivor.limiter.consume(s, 1)).kind === 'allowed') admitted++;
    const total = spentByCrashed + admitted;
    expect(total).toBeGreaterThanOrEqual(burst);
    expect(total - burst).toBeLessThanOrEqual(lease);
  });

  it('decides nothing from leases once the revision changes: the next request is stale and consumes nothing', async () => {
    const clock = privateHour();
    const { limiter, watch } = await gateway(() => clock);
    const s = await subject();
    for (let i = 0; i < 5; i++) await limiter.consume(s, 1);
    expect(watch.current(s.revisionKey, 1)).toBe(true);
    await redis.set(s.revisionKey, '2');
    await waitFor(() => !watch.current(s.revisionKey, 1), { what: 'the change to be announced' });
    expect(await limiter.consume(s, 1)).toEqual({ kind: 'stale' });
    const fresh = { ...s, revision: 2 };
    expect(await limiter.consume(fresh, 1)).toMatchObject({ kind: 'allowed', usage: { minute: 6 } });
  });

  it('decides nothing from memory while revision changes cannot be heard: every request asks Redis', async () => {
    const clock = privateHour();
    const { limiter, watch } = await gateway(() => clock);
    const s = await subject();
    for (let i = 0; i < 20; i++) await limiter.consume(s, 1);
    const before = limiter.calls;
    watch.stop();
    for (let i = 0; i < 5; i++) expect(await limiter.consume(s, 1)).toMatchObject({ kind: 'allowed', usage: { minute: 21 + i } });
    expect(limiter.calls - before).toBe(5);
  });

  it('gives unspent units back when a lease ends and on drain, so the counter holds exactly what was consumed', async () => {
    const clock = privateHour();
    const { limiter } = await gateway(() => clock, 0, { lifeMs: 200 });
    const s = await subject();
    for (let i = 0; i < 300; i++) await limiter.consume(s, 2);
    const keys = Limiter.counterKeys(s, windowsAt(clock));
    expect(Number(await redis.get(keys[0]!))).toBeGreaterThan(600);
    await waitFor(async () => Number(await redis.get(keys[0]!)) === 600, { what: 'the expired lease to come back' });
    expect(limiter.held()).toBe(0);
    expect(await redis.hgetall(LeasedLimiter.leasesKey(keys[0]!))).toEqual({});
    for (let i = 0; i < 50; i++) await limiter.consume(s, 1);
    await limiter.drain();
    expect((await redis.mget(keys[0]!, keys[1]!, keys[4]!)).map(Number)).toEqual([650, 350, 650]);
  });
});
