import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { serviceTestEnv, spawnService, TEST_DATABASE_URL, testKafka, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { ensureTopics } from '@pulseboard/kafka-kit';
import { eventsTopicSpec } from '@pulseboard/contracts';

const EVENTS = 30_000;
const PROJECTS = 24;

/**
 * A backlog on the events topic: one store instance SIGKILLed mid-way, then
 * two instances of the same group finishing it. Every event is stored exactly
 * once and counted once, as one instance alone would have.
 */
describe('store instances on one backlog', () => {
  // Batches of a dozen events: thousands of transactions, so the kill lands mid-backlog.
  const env = serviceTestEnv({ STORE_MAX_BYTES_PER_PARTITION: '4096' });
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const stores: ServiceProcess[] = [];
  const run = env.STORE_GROUP_ID!;
  const projects = Array.from({ length: PROJECTS }, (_, i) => `scale-${run.slice(-8)}-${i}`);

  beforeAll(async () => {
    const kafka = testKafka();
    await ensureTopics(kafka, [eventsTopicSpec(env.TOPIC_EVENTS!, { BODY_LIMIT_BYTES: 1_048_576 })]);
    const producer = kafka.producer();
    await producer.connect();
    const now = Date.now();
    for (let start = 0; start < EVENTS; start += 1000) {
      const messages = Array.from({ length: 1000 }, (_, i) => {
        const n = start + i;
        const project = projects[n % PROJECTS]!;
        // Spread over three days, so batches span partitions of the table too.
        const event = {
          id: 7_000_000_000_000 + n,
          project_key: project,
          account_id: 1,
          type: 'metric',
          name: 'cpu_usage',
          timestamp: new Date(now - (n % 3) * 86_400_000 - n).toISOString(),
          received_at: new Date(now).toISOString(),
          labels: [`l${n % 4}`],
          attributes: { value: n },
        };
        return { key: project, value: JSON.stringify(event) };
      });
      await producer.send({ topic: env.TOPIC_EVENTS!, messages });
    }
    await producer.disconnect();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.kill('SIGTERM')));
    await db.end();
  });

  const stored = async () => Number((await db.query('SELECT count(*) FROM events WHERE project_key = ANY($1)', [projects])).rows[0].count);

  it('one SIGKILLed mid-backlog, then two splitting the partitions: every event stored and counted once', async () => {
    const victim = await spawnService('store', env);
    stores.push(victim);
    await waitFor(async () => (await stored()) > 0, { timeoutMs: 60_000, intervalMs: 10, what: 'the first events stored' });
    await victim.kill('SIGKILL');
    expect(await stored()).toBeLessThan(EVENTS);
    // Two instances take over the rest (once the group has given up on the killed one).
    stores.push(...(await Promise.all([spawnService('store', env), spawnService('store', env)])));
    await waitFor(async () => (await stored()) === EVENTS, { timeoutMs: 120_000, what: `${EVENTS} events stored` });

    // The two that drained the rest split the topic's partitions between them.
    for (const store of stores.slice(1)) expect(store.logs.some((l) => l.includes('"event":"partition_claimed"'))).toBe(true);
    const ids = await db.query<{ n: number; distinct_ids: number; lo: string; hi: string }>(
      'SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct_ids, min(id)::text AS lo, max(id)::text AS hi FROM events WHERE project_key = ANY($1)',
      [projects],
    );
    expect(ids.rows[0]).toEqual({ n: EVENTS, distinct_ids: EVENTS, lo: '7000000000000', hi: String(7_000_000_000_000 + EVENTS - 1) });
    const counts = await db.query(
      'SELECT (SELECT sum(event_count)::int FROM project_monthly_usage WHERE project_key = ANY($1)) AS monthly, (SELECT sum(event_count)::int FROM project_daily_events WHERE project_key = ANY($1)) AS daily, (SELECT count(*)::int FROM event_labels WHERE project_key = ANY($1)) AS labels',
      [projects],
    );
    expect(counts.rows[0]).toEqual({ monthly: EVENTS, daily: EVENTS, labels: EVENTS });
  });
});
