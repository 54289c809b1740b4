import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import {
  envelope,
  provisionProject,
  requestFrom,
  setEnvelopeClock,
  TEST_ADMIN_TOKEN,
  TEST_INTERNAL_PROXY_SECRET,
  TEST_REDIS_URL,
  waitFor,
} from '@pulseboard/test-kit';
import { hashSecret } from '@pulseboard/contracts';
import { PROXY_CLIENT_HEADER, PROXY_SECRET_HEADER } from '@pulseboard/config';
import { startTestGateway } from '../../test/test-gateway.ts';
import { manualClock, privateHour } from '../../test/ingest-test-kit.ts';

const LIMIT = 20;

/**
 * The failed-authentication throttle on the real stack (Redis, Postgres): it
 * bounds the Postgres lookups failing credentials cause per client address and
 * key prefix, and never keeps a valid credential out. Clients are told apart by
 * their local address (127.0.0.x); the gateway runs on a clock of its own, so
 * its one-minute windows are this file's alone.
 */
describe('failed authentications: failures are throttled, valid credentials never', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const clock = manualClock(privateHour());
  const url = (path: string) => `${gateway.url}${path}`;
  const bad = (prefix = 'evk_') => `${prefix}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  /** Postgres lookups of credentials so far, from the gateway's /metrics. */
  const lookups = async () => {
    const text = String((await requestFrom('127.0.0.1', url('/metrics'))).body);
    return [...text.matchAll(/^pulseboard_gateway_credential_lookups_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  /** A never-used project key and user token of a new account. */
  const fresh = () => provisionProject(gateway.url, TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_FAILURES_PER_MINUTE: String(LIMIT) }, { now: () => clock.now() });
    setEnvelopeClock(() => clock.now());
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('100 failures from one address cause at most the limit of lookups; then a never-used valid key and token from it are accepted', async () => {
    clock.advance(120_000);
    const project = await fresh();
    const before = await lookups();
    const statuses: number[] = [];
    // In bursts of 20 at once: concurrent failures cannot slip past the limit together.
    for (let burst = 0; burst < 5; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => requestFrom('127.0.0.2', url('/api/v1/projects'), { token: i % 2 === 0 ? bad('evk_') : bad('evu_') })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LIMIT);
    expect((await lookups()) - before).toBeLessThanOrEqual(LIMIT);

    // Still this minute, still this address: a valid key nobody used yet sends an event, a valid user token reads.
    const ingest = await requestFrom('127.0.0.2', url('/ingest'), { token: project.apiKey, body: envelope(project.projectKey) });
    expect(ingest.status).toBe(201);
    expect((await requestFrom('127.0.0.2', url('/api/v1/projects'), { token: project.userToken })).status).toBe(200);
    // Failures still wait, and cost no lookup: one per valid credential only.
    const throttled = await requestFrom('127.0.0.2', url('/api/v1/projects'), { token: bad() });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.stringContaining('failed authentications') } });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await lookups()) - before).toBeLessThanOrEqual(LIMIT + 2);
    // Another address is not held by this one's failures.
    expect((await requestFrom('127.0.0.3', url('/api/v1/projects'), { token: bad() })).status).toBe(401);
  });

  it('21 failures sharing a valid user token’s first 12 characters, from many addresses, leave that token working everywhere', async () => {
    clock.advance(120_000);
    const project = await fresh();
    const prefix = project.userToken.slice(0, 12);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++)
      statuses.push((await requestFrom(`127.0.1.${i + 1}`, url('/api/v1/projects'), { token: `${prefix}${bad('')}` })).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    // The prefix is throttled: garbage with it waits, the real token is accepted from an old address and a new one.
    expect((await requestFrom('127.0.1.50', url('/api/v1/projects'), { token: `${prefix}${bad('')}` })).status).toBe(429);
    expect((await requestFrom('127.0.1.1', url('/api/v1/projects'), { token: project.userToken })).status).toBe(200);
    expect((await requestFrom('127.0.1.51', url('/api/v1/tiles'), { token: project.userToken })).status).toBe(200);
  });

  it('a spoofed X-Forwarded-For or pass-through header from an untrusted peer changes nothing', async () => {
    clock.advance(120_000);
    const spoofs = (i: number): Record<string, string> => ({
      'x-forwarded-for': `10.9.${i}.1`,
      forwarded: `for=10.8.${i}.1`,
      [PROXY_CLIENT_HEADER]: `10.7.${i}.1`,
      [PROXY_SECRET_HEADER]: `not-the-secret-${i}`,
    });
    for (let i = 0; i < LIMIT; i++) expect((await requestFrom('127.0.2.1', url('/api/v1/projects'), { token: bad(), headers: spoofs(i) })).status).toBe(401);
    // Each request claimed another address: all were counted for the peer, which is now throttled.
    expect((await requestFrom('127.0.2.1', url('/api/v1/projects'), { token: bad(), headers: spoofs(99) })).status).toBe(429);
    expect((await requestFrom('127.0.2.1', url('/ingest'), { token: bad(), body: {}, headers: { 'x-forwarded-for': '127.0.2.2' } })).status).toBe(429);
    // The addresses it claimed were never charged.
    expect((await requestFrom('127.0.2.2', url('/api/v1/projects'), { token: bad() })).status).toBe(401);

    // Broadcast's pass-through, proving itself with INTERNAL_PROXY_SECRET, names the browser's address: that one is counted.
    const passed = (client: string) => ({ [PROXY_SECRET_HEADER]: TEST_INTERNAL_PROXY_SECRET, [PROXY_CLIENT_HEADER]: client });
    expect((await requestFrom('127.0.2.1', url('/api/v1/projects'), { token: bad(), headers: passed('203.0.113.9') })).status).toBe(401);
    for (let i = 1; i < LIMIT; i++) await requestFrom('127.0.2.3', url('/api/v1/projects'), { token: bad(), headers: passed('203.0.113.9') });
    expect((await requestFrom('127.0.2.4', url('/api/v1/projects'), { token: bad(), headers: passed('203.0.113.9') })).status).toBe(429);
    expect((await requestFrom('127.0.2.4', url('/api/v1/projects'), { token: bad() })).status).toBe(401);
  });

  it('counts wrong admin tokens per address (429 past the limit); the right admin token always works', async () => {
    clock.advance(120_000);
    const wrong = () => `${bad('')}${bad('')}`;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 5; i++) statuses.push((await requestFrom('127.0.3.1', url('/api/v1/admin/accounts'), { token: wrong() })).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    const throttled = await requestFrom('127.0.3.1', url('/api/v1/admin/accounts'), { token: wrong() });
    expect(throttled.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    const created = await requestFrom('127.0.3.1', url('/api/v1/admin/accounts'), { token: TEST_ADMIN_TOKEN, body: { name: 'from a throttled address' } });
    expect(created.status).toBe(201);
    expect((await requestFrom('127.0.3.2', url('/api/v1/admin/accounts'), { token: wrong() })).status).toBe(401);
  });

  it('revocation and key regeneration take effect at once on every gateway, for a throttled address too, and leave the valid-credential set', async () => {
    clock.advance(120_000);
    const project = await fresh();
    // A second gateway on the same stack, with nothing in its memory: the throttle, the set and revocation are shared.
    const other = await startTestGateway(gateway.env, { now: () => clock.now() });
    const otherUrl = (path: string) => `${other.url}${path}`;
    const redis = new Redis(TEST_REDIS_URL);
    const inSet = async (secret: string) => (await redis.zscore('{pbrl}:cred:valid', hashSecret(secret))) !== null;
    try {
      for (let i = 0; i < LIMIT; i++) await requestFrom('127.0.4.1', url('/api/v1/projects'), { token: bad() });
      expect((await requestFrom('127.0.4.1', url('/api/v1/projects'), { token: bad() })).status).toBe(429);
      expect((await requestFrom('127.0.4.1', otherUrl('/api/v1/projects'), { token: bad() })).status).toBe(429);

      // A second token of the user, revoked on one gateway: refused at once on both, from the throttled address and any other.
      const users = await requestFrom('127.0.0.1', url(`/api/v1/admin/accounts/${project.accountId}/users`), { token: TEST_ADMIN_TOKEN });
      const userId = users.body.data[0].id as number;
      const second = await requestFrom('127.0.0.1', url(`/api/v1/admin/users/${userId}/tokens`), { token: TEST_ADMIN_TOKEN, body: { label: 'second' } });
      expect(second.status).toBe(201);
      expect((await requestFrom('127.0.4.1', url('/api/v1/projects'), { token: second.body.token })).status).toBe(200);
      expect((await requestFrom('127.0.4.1', otherUrl('/api/v1/projects'), { token: second.body.token })).status).toBe(200);
      expect(await inSet(second.body.token)).toBe(true);
      expect(
        (await requestFrom('127.0.0.1', url(`/api/v1/admin/users/${userId}/tokens/${second.body.id}`), { token: TEST_ADMIN_TOKEN, method: 'DELETE' })).status,
      ).toBe(204);
      // Out of the set once revoked, without being presented: a throttled address then gets 429 for it, no lookup.
      await waitFor(async () => !(await inSet(second.body.token)), { what: 'the revoked token left the valid-credential set' });
      for (const at of [url, otherUrl]) {
        expect((await requestFrom('127.0.4.1', at('/api/v1/projects'), { token: second.body.token })).status).toBe(429);
        expect((await requestFrom('127.0.4.2', at('/api/v1/projects'), { token: second.body.token })).status).toBe(401);
      }
      // Revoked by its own user likewise.
      const third = await requestFrom('127.0.0.1', otherUrl('/api/v1/tokens'), { token: project.userToken, body: { label: 'third' } });
      expect(third.status).toBe(201);
      expect((await requestFrom('127.0.0.1', otherUrl(`/api/v1/tokens/${third.body.id}`), { token: project.userToken, method: 'DELETE' })).status).toBe(204);
      await waitFor(async () => !(await inSet(third.body.token)), { what: 'the self-revoked token left the valid-credential set' });
      expect((await requestFrom('127.0.4.3', url('/api/v1/projects'), { token: third.body.token })).status).toBe(401);

      // The key regenerated on one gateway (its old one used once on each, so cached on both): the old one stops at
      // once on the other, the new one works there from the throttled address; the old one leaves the set.
      expect((await requestFrom('127.0.0.1', url('/ingest'), { token: project.apiKey, body: envelope(project.projectKey) })).status).toBe(201);
      expect((await requestFrom('127.0.0.1', otherUrl('/ingest'), { token: project.apiKey, body: envelope(project.projectKey) })).status).toBe(201);
      expect(await inSet(project.apiKey)).toBe(true);
      const regenerated = await requestFrom('127.0.0.1', url(`/api/v1/projects/${project.projectKey}/regenerate_key`), {
        token: project.userToken,
        body: { confirm: true },
      });
      expect(regenerated.status).toBe(200);
      await waitFor(async () => !(await inSet(project.apiKey)), { what: 'the replaced key left the valid-credential set' });
      expect(await inSet(regenerated.body.data.api_key)).toBe(true);
      for (const at of [url, otherUrl]) {
        expect([401, 429]).toContain((await requestFrom('127.0.4.1', at('/ingest'), { token: project.apiKey, body: envelope(project.projectKey) })).status);
        expect((await requestFrom('127.0.4.4', at('/ingest'), { token: project.apiKey, body: envelope(project.projectKey) })).status).toBe(401);
      }
      expect((await requestFrom('127.0.4.1', otherUrl('/ingest'), { token: regenerated.body.data.api_key, body: envelope(project.projectKey) })).status).toBe(
        201,
      );
      expect((await requestFrom('127.0.4.1', url('/ingest'), { token: regenerated.body.data.api_key, body: envelope(project.projectKey) })).status).toBe(201);
    } finally {
      redis.disconnect();
      await other.stop();
    }
  });

  it('loads the valid-credential set from Postgres again when Redis lost it: a valid key still gets in from a throttled address', async () => {
    clock.advance(120_000);
    const project = await fresh();
    for (let i = 0; i < LIMIT; i++) await requestFrom('127.0.7.1', url('/api/v1/projects'), { token: bad() });
    expect((await requestFrom('127.0.7.1', url('/api/v1/projects'), { token: bad() })).status).toBe(429);
    // Redis restarted empty, or evicted the set.
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.del('{pbrl}:cred:valid');
    } finally {
      redis.disconnect();
    }
    expect((await requestFrom('127.0.7.1', url('/api/v1/projects'), { token: project.apiKey })).status).toBe(200);
    expect((await requestFrom('127.0.7.1', url('/api/v1/projects'), { token: project.userToken })).status).toBe(200);
    expect((await requestFrom('127.0.7.1', url('/api/v1/projects'), { token: bad() })).status).toBe(429);
  });

  it("answers broadcast's credential check from the valid-credential set, and nobody else", async () => {
    const project = await fresh();
    const passed = { [PROXY_SECRET_HEADER]: TEST_INTERNAL_PROXY_SECRET, [PROXY_CLIENT_HEADER]: '198.51.100.7' };
    const check = (token: string, headers: Record<string, string>) => requestFrom('127.0.0.1', url('/internal/v1/credential-check'), { token, headers });
    expect((await check(project.userToken, passed)).body).toEqual({ valid: true });
    expect((await check(project.apiKey, passed)).body).toEqual({ valid: true });
    expect((await check(bad('evu_'), passed)).body).toEqual({ valid: false });
    const outsider = await check(project.userToken, { [PROXY_SECRET_HEADER]: 'guess', [PROXY_CLIENT_HEADER]: '198.51.100.7' });
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.code).toBe('not_found');
    expect((await check(project.userToken, {})).status).toBe(404);
  });
});

describe('TRUST_PROXY: X-Forwarded-For is believed from the named proxy only', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  const clock = manualClock(privateHour());
  const url = (path: string) => `${gateway.url}${path}`;
  const bad = () => `evk_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.8.1' }, { now: () => clock.now() });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it("counts the client the proxy names, and anyone else's header as nothing", async () => {
    clock.advance(120_000);
    const through = (client: string) => ({ 'x-forwarded-for': client });
    for (let i = 0; i < LIMIT; i++)
      expect((await requestFrom('127.0.8.1', url('/api/v1/projects'), { token: bad(), headers: through('203.0.113.50') })).status).toBe(401);
    // That client is throttled; another behind the same proxy, and the proxy itself, are not.
    expect((await requestFrom('127.0.8.1', url('/api/v1/projects'), { token: bad(), headers: through('203.0.113.50') })).status).toBe(429);
    expect((await requestFrom('127.0.8.1', url('/api/v1/projects'), { token: bad(), headers: through('203.0.113.51') })).status).toBe(401);
    expect((await requestFrom('127.0.8.1', url('/api/v1/projects'), { token: bad() })).status).toBe(401);
    // A peer that is not the proxy cannot borrow an address, throttled or fresh: it is counted as itself.
    for (let i = 0; i < LIMIT; i++) await requestFrom('127.0.8.2', url('/api/v1/projects'), { token: bad(), headers: through(`198.51.100.${i}`) });
    expect((await requestFrom('127.0.8.2', url('/api/v1/projects'), { token: bad(), headers: through('198.51.100.200') })).status).toBe(429);
    expect((await requestFrom('127.0.8.1', url('/api/v1/projects'), { token: bad(), headers: through('198.51.100.200') })).status).toBe(401);
  });
});
