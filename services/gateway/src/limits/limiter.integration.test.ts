import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, uniqueName } from '@pulseboard/test-kit';
import { revisionKey } from '../auth/revision.ts';
import { Limiter, type LimitSubject } from './limiter.ts';
import { windowsAt } from './windows.ts';

// The limiter script against the real Redis (database 1), keys of this file's own projects only.
const redis = new Redis(TEST_REDIS_URL);
afterAll(() => {
  redis.disconnect();
});

const NOW = Date.UTC(2033, 2, 3, 4, 5, 6);

async function subject(limits: Partial<LimitSubject['limits']> = {}): Promise<LimitSubject> {
  const projectKey = uniqueName('lim');
  await redis.set(revisionKey(projectKey), '1');
  return {
    projectKey,
    revisionKey: revisionKey(projectKey),
    accountId: Math.floor(Math.random() * 1e9) + 1e9,
    revision: 1,
    limits: { burst: 100, projectHourly: 1000, accountHourly: 1e8, globalHourly: 1e9, monthlyQuota: 10000, ...limits },
  };
}

describe('Limiter (one Lua call per micro-batch)', () => {
  it('decides concurrent requests in one script call, each all or nothing, in arrival order', async () => {
    const seeds: string[] = [];
    const sizes: number[] = [];
    const limiter = new Limiter(
      redis,
      async (key) => (seeds.push(key), 0),
      () => NOW,
      (n) => sizes.push(n),
    );
    const s = await subject({ burst: 10 });
    const decisions = await Promise.all([4, 4, 4, 2, 1].map((n) => limiter.consume(s, n)));
    expect(decisions.map((d) => d.kind)).toEqual(['allowed', 'allowed', 'rate_limited', 'allowed', 'rate_limited']);
    expect(decisions.map((d) => (d.kind === 'stale' ? -1 : d.usage.minute))).toEqual([4, 8, 8, 10, 10]);
    // One call found no quota counter; the retry with Postgres' count (here 0) decided them all.
    expect(seeds).toEqual([s.projectKey]);
    expect(sizes).toEqual([5, 5]);
    const usage = await limiter.usage(s);
    expect(usage).toMatchObject({ usage: { minute: 10, projectHour: 3, month: 10 } });
  });

  it('starts a missing quota counter from the loaded count, never from zero', async () => {
    const limiter = new Limiter(
      redis,
      async () => 9_995,
      () => NOW,
    );
    const s = await subject();
    const first = await limiter.consume(s, 3);
    expect(first).toMatchObject({ kind: 'allowed', usage: { month: 9_998 } });
    const refused = await limiter.consume(s, 3);
    expect(refused).toMatchObject({ kind: 'quota_exceeded', used: 9_998, limit: 10_000, resetAt: new Date(Date.UTC(2033, 3, 1)) });
  });

  it('says stale when the cached revision is not the one in Redis, and consumes nothing', async () => {
    const limiter = new Limiter(
      redis,
      async () => 0,
      () => NOW,
    );
    const s = await subject();
    await redis.set(revisionKey(s.projectKey), '2');
    expect(await limiter.consume(s, 1)).toEqual({ kind: 'stale' });
    await redis.del(revisionKey(s.projectKey));
    expect(await limiter.consume(s, 1)).toEqual({ kind: 'stale' });
    await redis.set(revisionKey(s.projectKey), '1');
    expect(await limiter.consume(s, 1)).toMatchObject({ kind: 'allowed', usage: { minute: 1, month: 1 } });
  });

  it('refunds exactly what a consume took, and never below zero', async () => {
    const limiter = new Limiter(
      redis,
      async () => 0,
      () => NOW,
    );
    const s = await subject();
    const taken = await limiter.consume(s, 5);
    if (taken.kind !== 'allowed') throw new Error('expected allowed');
    await limiter.refund(s, 5, taken.windows);
    expect(await limiter.usage(s)).toMatchObject({ usage: { minute: 0, projectHour: 0, month: 0 } });
    await limiter.refund(s, 5, taken.windows);
    expect(await limiter.usage(s)).toMatchObject({ usage: { minute: 0, projectHour: 0, month: 0 } });
  });

  it('gives counters a ttl when they are born, from the end of their window', async () => {
    const limiter = new Limiter(
      redis,
      async () => 0,
      () => NOW,
    );
    const s = await subject();
    await limiter.consume(s, 1);
    const w = windowsAt(NOW);
    const [, minute, hour, , , quota] = Limiter.keys(s, w);
    expect(await redis.ttl(minute)).toBe(w.minute.resetAt - w.nowSeconds + 5);
    expect(await redis.ttl(hour)).toBe(w.hour.resetAt - w.nowSeconds + 60);
    expect(await redis.ttl(quota)).toBe(w.month.resetAt - w.nowSeconds + 7 * 86400);
  });

  it('uses one MGET and one SET per changed counter for a whole batch', async () => {
    const limiter = new Limiter(
      redis,
      async () => 0,
      () => NOW,
    );
    const s = await subject();
    await limiter.consume(s, 1); // counters exist now
    const commands: string[] = [];
    // A MONITOR connection of our own, with its error listener from the start: on a busy server
    // ioredis parses the lines that share a packet with MONITOR's OK before it knows it is
    // monitoring, and reports each as a queue error (redis.monitor() leaves them uncaught). Those
    // lines are other clients' commands from before ours; ours come after 'monitoring'.
    const m = new Redis(TEST_REDIS_URL, { monitor: true, lazyConnect: true });
    m.on('error', () => undefined);
    // Not events.once(): it would reject on those queue errors.
    const monitoring = new Promise((resolve) => m.once('monitoring', resolve));
    await m.connect();
    await monitoring;
    try {
      await new Promise<void>((resolve, reject) => {
        // Other test files share this Redis: count only commands on this test's keys.
        const mine = [s.projectKey, `:${s.accountId}:`, `{pbrl}:hg:${windowsAt(NOW).hour.id}`];
        // The monitor's stream may trail the commands (a proxy between, as with a published
        // container port): it has seen them all once it shows this marker, sent after them.
        const marker = `limiter-test-done-${s.projectKey}`;
        let seen = false;
        m.on('monitor', (_time: string, args: string[], source: string) => {
          if (seen) return;
          if (source === 'lua' && args.slice(1).some((a) => mine.some((k) => a.includes(k)))) commands.push(args[0]!.toUpperCase());
          if (args[0]?.toLowerCase() === 'echo' && args[1] === marker) {
            seen = true;
            resolve();
          }
        });
        Promise.all(Array.from({ length: 20 }, () => limiter.consume(s, 1))).then(() => redis.echo(marker), reject);
      });
    } finally {
      // Outside the monitor's event: disconnecting from inside it left the rest of the chunk to be parsed as replies.
      m.disconnect();
    }
    // 20 requests: MGET once, then SET for minute, project hour, account hour, global hour, quota.
    expect(commands.filter((c) => c === 'MGET').length).toBe(1);
    expect(commands.filter((c) => c === 'SET').length).toBe(5);
    expect(commands.length).toBe(6);
  });
});
