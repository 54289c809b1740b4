import { expect } from 'vitest';
import { Redis } from 'ioredis';
import {
  envelope,
  provisionProject,
  request,
  setEnvelopeClock,
  TEST_ADMIN_TOKEN,
  TEST_REDIS_URL,
  topicMessageCount,
  type JsonResponse,
} from '@pulseboard/test-kit';
import { startTestGateway } from './test-gateway.ts';
import type { GatewayOverrides } from '../src/service.ts';

export type Project = Awaited<ReturnType<typeof provisionProject>>;

/** A clock the test moves by hand: window roll-over without sleeping. */
export function manualClock(startMs: number) {
  let t = startMs;
  return {
    now: () => t,
    set(ms: number) {
      t = ms;
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

/**
 * An hour no other test (or test run) uses, far in the future: counters shared by
 * every project (account, global) start from zero there.
 */
export function privateHour(): number {
  const hours = Math.floor(Math.random() * 24 * 365 * 500);
  return Date.UTC(2200, 0, 1) + hours * 3_600_000;
}

/** An in-process gateway plus what ingest tests keep needing. */
export async function ingestTestGateway(env: Record<string, string> = {}, overrides: GatewayOverrides = {}) {
  const gw = await startTestGateway(env, overrides);
  // Events from envelope() carry the gateway's time, as a client's whose clock agrees would.
  setEnvelopeClock(overrides.now ?? Date.now);
  const topic = gw.env.TOPIC_EVENTS!;
  const provision = (options: Parameters<typeof provisionProject>[2] = {}) => provisionProject(gw.url, TEST_ADMIN_TOKEN, options);
  const sentinel = await provision({ burstLimit: 1_000_000, hourlyLimit: 1_000_000, monthlyQuota: 1_000_000 });
  const redis = new Redis(TEST_REDIS_URL);

  const ingest = (project: Project, body: unknown = envelope(project.projectKey), headers: Record<string, string> = {}): Promise<JsonResponse> =>
    request(`${gw.url}/ingest`, { token: project.apiKey, body, headers });
  const webhook = (project: Project, body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> =>
    request(`${gw.url}/api/v1/webhooks`, { token: project.apiKey, body, headers });

  return {
    ...gw,
    topic,
    redis,
    provision,
    ingest,
    webhook,
    rateLimits: async (project: Project) => (await request(`${gw.url}/api/v1/rate_limits`, { token: project.apiKey })).body.data.limits,
    /**
     * Runs `action` and proves it produced nothing: afterwards a sentinel event is
     * produced, and the topic must have grown by exactly that one (one producer,
     * acknowledgements in order, so anything `action` produced would show).
     */
    async expectProducedNothing<T>(action: () => Promise<T>): Promise<T> {
      const before = await topicMessageCount(topic);
      const result = await action();
      const marker = await ingest(sentinel);
      expect(marker.status).toBe(201);
      expect(await topicMessageCount(topic)).toBe(before + 1);
      return result;
    },
    async stop() {
      redis.disconnect();
      await gw.stop();
    },
  };
}

export type IngestTestGateway = Awaited<ReturnType<typeof ingestTestGateway>>;

/**
 * For a project limited to a burst of 3, 4 requests an hour and a quota of 5:
 * fills each window in turn on the test clock and checks the refusal (429 burst,
 * 429 hourly a minute later, 402 quota an hour later). Returns the refusals.
 */
export async function expectBurstHourlyQuotaWalk(gw: IngestTestGateway, project: Project, clock: ReturnType<typeof manualClock>) {
  for (let i = 0; i < 3; i++) expect((await gw.ingest(project)).status).toBe(201);
  const burst = await gw.ingest(project);
  expect(burst.status).toBe(429);
  expect(burst.body).toMatchObject({ rate_limit: 3, current_usage: 3 });

  clock.advance(60_000);
  expect((await gw.ingest(project)).status).toBe(201);
  const hourly = await gw.ingest(project);
  expect(hourly.status).toBe(429);
  expect(hourly.body).toMatchObject({ rate_limit: 4, current_usage: 4 });

  clock.advance(3_600_000);
  expect((await gw.ingest(project)).status).toBe(201);
  const quota = await gw.ingest(project);
  expect(quota.status).toBe(402);
  expect(quota.body).toMatchObject({ quota_limit: 5, quota_used: 5 });
  return { burst, hourly, quota };
}
