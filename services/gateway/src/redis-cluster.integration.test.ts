import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import { envelope, startRedisCluster } from '@pulseboard/test-kit';
import { expectBurstHourlyQuotaWalk, ingestTestGateway, manualClock, privateHour, type IngestTestGateway } from '../test/ingest-test-kit.ts';
import { clusterNodes } from './redis-client.ts';

/**
 * Spec 8 asks for limits that also work on Redis Cluster: every limiter key
 * carries the `{pbrl}` hash tag, so one script may touch them all. Here a real
 * three-master cluster (the machine's redis-server) backs a gateway through
 * REDIS_CLUSTER_NODES.
 */
describe('the gateway on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let gw: IngestTestGateway;
  let client: Cluster;
  const clock = manualClock(privateHour() + 5_000);

  beforeAll(async () => {
    cluster = await startRedisCluster();
    gw = await ingestTestGateway({ REDIS_CLUSTER_NODES: cluster.nodes }, { now: clock.now });
    client = new Cluster(clusterNodes(cluster.nodes));
  });
  afterAll(async () => {
    client?.disconnect();
    await gw?.stop();
    await cluster?.stop();
  });

  /** The project's limiter keys, wherever in the cluster they live. */
  async function limiterKeys(projectKey: string): Promise<{ node: string; key: string }[]> {
    const found: { node: string; key: string }[] = [];
    for (const node of client.nodes('master')) {
      for (const key of await node.keys(`{pbrl}:*${projectKey}*`)) found.push({ node: `${node.options.host}:${node.options.port}`, key });
    }
    return found;
  }

  it('decides burst, hourly and quota there, with the exact 429 and 402 bodies, all counters of a project in one slot', async () => {
    const project = await gw.provision({ burstLimit: 3, hourlyLimit: 4, monthlyQuota: 5 });
    const { burst } = await expectBurstHourlyQuotaWalk(gw, project, clock);
    expect(burst.body).toMatchObject({ code: 'rate_limit_exceeded', retry_after: expect.any(Number) });

    // The counters are in the cluster, on a single master, and not in the single Redis of REDIS_URL.
    const keys = await limiterKeys(project.projectKey);
    expect(keys.map((k) => k.key.split(':')[1]).sort()).toEqual(expect.arrayContaining(['hp', 'm', 'q', 'rev']));
    expect(new Set(keys.map((k) => k.node)).size).toBe(1);
    expect(await gw.redis.keys(`{pbrl}:*${project.projectKey}*`)).toEqual([]);
  });

  it('takes a webhooks batch whole or not at all, reports every limit, and replays an Idempotency-Key', async () => {
    const project = await gw.provision({ burstLimit: 5, hourlyLimit: 100, monthlyQuota: 100 });
    const events = (n: number) => ({
      events: Array.from({ length: n }, () => ({ type: 'metric', name: 'cpu', timestamp: new Date(clock.now()).toISOString(), attributes: {} })),
    });
    expect((await gw.webhook(project, events(4))).status).toBe(202);
    const tooMany = await gw.webhook(project, events(2));
    expect(tooMany.status).toBe(429);
    const limits = await gw.rateLimits(project);
    expect(limits.burst_per_minute).toMatchObject({ limit: 5, used: 4, remaining: 1 });

    const body = envelope(project.projectKey);
    const first = await gw.ingest(project, body, { 'idempotency-key': 'cluster-retry-1' });
    expect(first.status).toBe(201);
    const retry = await gw.ingest(project, body, { 'idempotency-key': 'cluster-retry-1' });
    expect(retry.status).toBe(201);
    expect(retry.body.event_id).toBe(first.body.event_id);
    expect((await gw.rateLimits(project)).burst_per_minute.used).toBe(5);
  });
});
