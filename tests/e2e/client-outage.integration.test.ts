import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PulseboardApiError, PulseboardClient, PulseboardNetworkError } from '@pulseboard/client';
import { spawnService, startPrivateBroker, TEST_DATABASE_URL, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

/**
 * How many events go through the client. CI sends a few thousand (the point is the
 * outages in the middle, not the volume); `CLIENT_OUTAGE_EVENTS=100000` is the run.
 */
const EVENTS = Number(process.env.CLIENT_OUTAGE_EVENTS ?? 3000);

describe('@pulseboard/client through a gateway killed and restarted and a broker down for 5 s', () => {
  let broker: Awaited<ReturnType<typeof startPrivateBroker>>;
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let restarted: ServiceProcess | undefined;
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });

  beforeAll(async () => {
    broker = await startPrivateBroker();
    // No rule engine here: nobody waits for outcomes, so a request lasts at most the delivery timeout (and a key's lease 5 s).
    pipeline = await startPipeline({ KAFKA_BROKERS: broker.brokers, KAFKA_DELIVERY_TIMEOUT_MS: '3000', WEBHOOK_OUTCOME_TIMEOUT_MS: '0' });
    await pipeline.startStore();
    // Hang guards above the private broker's bounded start (KAFKA_START_TIMEOUT_S 180 in the test kit).
  }, 300_000);
  afterAll(async () => {
    await restarted?.kill('SIGTERM');
    await pipeline?.stop();
    await broker?.destroy();
    await db.end();
  });

  it(
    'stores every event exactly once',
    async () => {
      const project = await pipeline.provision({ burstLimit: 10_000_000, hourlyLimit: 10_000_000, monthlyQuota: 10_000_000 });
      const seen = { network: 0, status: new Map<number, number>() };
      const givenUp: string[] = [];
      const client = new PulseboardClient({
        url: pipeline.url,
        apiKey: project.apiKey,
        // A small buffer: the sender is held back while the gateway is away, so the outages fall mid-stream.
        maxBufferEvents: 500,
        retry: { baseMs: 100, maxMs: 1000 },
        hooks: {
          onRetry: ({ error }) => {
            if (error instanceof PulseboardNetworkError) seen.network++;
            if (error instanceof PulseboardApiError) seen.status.set(error.status, (seen.status.get(error.status) ?? 0) + 1);
          },
          // A thrown hook is swallowed by the client: the reasons are kept and shown with the counts.
          onFailed: ({ error, attempts }) => {
            givenUp.push(`${String(error)} ${JSON.stringify((error as { body?: unknown }).body ?? null)} after ${attempts} attempts`);
          },
        },
      });

      let sentAtBrokerStop = -1;
      const outages = async () => {
        // Killed, not stopped: requests in flight die with it, their keys left pending.
        await pipeline.gateway.kill('SIGKILL');
        restarted = await spawnService('gateway', pipeline.env);
        const afterRestart = client.stats().sent;
        await waitFor(() => client.stats().sent >= afterRestart + 200, {
          timeoutMs: 60_000,
          intervalMs: 20,
          what: 'sending to resume on the restarted gateway',
        });
        sentAtBrokerStop = client.stats().sent;
        await broker.stop();
        await new Promise((resolve) => setTimeout(resolve, 5000)); // the outage's length, not a wait for a condition
        await broker.start();
      };

      let disruption: Promise<void> | undefined;
      const started = Date.now();
      for (let n = 0; n < EVENTS; n++) {
        if (n === Math.floor(EVENTS / 3)) disruption = outages();
        await client.send({ type: 'metric', name: 'client_outage', attributes: { n } });
      }
      await disruption;
      const stats = await client.close();
      const tookMs = Date.now() - started;

      const gatewayErrors = () =>
        (restarted?.logs ?? [])
          .filter((l) => /"level":(50|60)/.test(l))
          .slice(-5)
          .join('\n');
      expect(givenUp, `batches the client gave up; the gateway's last errors:\n${gatewayErrors()}`).toEqual([]);
      expect(stats).toMatchObject({ sent: EVENTS, failed: 0, dropped: 0, pending: 0 });
      // The outages fell mid-stream and the client met them.
      expect(sentAtBrokerStop).toBeGreaterThan(0);
      expect(sentAtBrokerStop).toBeLessThan(EVENTS);
      expect(seen.network + (seen.status.get(503) ?? 0)).toBeGreaterThan(0);

      const counts = async () =>
        (
          await db.query<{ total: string; distinct_n: string; distinct_id: string }>(
            "SELECT count(*) AS total, count(DISTINCT attributes->>'n') AS distinct_n, count(DISTINCT id) AS distinct_id FROM events WHERE project_key = $1",
            [project.projectKey],
          )
        ).rows[0]!;
      await waitFor(async () => Number((await counts()).total) >= EVENTS, { timeoutMs: 60_000, what: `${EVENTS} events stored` });
      // A moment for a duplicate to land too, if there were one: the store's next batches.
      const settled = await waitFor(
        async () => {
          const before = await counts();
          await new Promise((resolve) => setTimeout(resolve, 500));
          const after = await counts();
          return after.total === before.total ? after : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 0, what: 'the stored count to settle' },
      );
      console.log(
        `client outage run: ${EVENTS} events in ${tookMs} ms; retries ${stats.retries} (network ${seen.network}, by status ${JSON.stringify([...seen.status])})`,
      );
      expect({ total: Number(settled.total), distinct_n: Number(settled.distinct_n), distinct_id: Number(settled.distinct_id) }).toEqual({
        total: EVENTS,
        distinct_n: EVENTS,
        distinct_id: EVENTS,
      });
    },
    Math.max(420_000, EVENTS * 10),
  );
});
