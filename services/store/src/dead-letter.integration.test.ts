import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ConfigResourceTypes } from 'kafkajs';
import { readTopic, serviceTestEnv, TEST_DATABASE_URL, testKafka, topicMessageCount, uniqueName, waitFor } from '@pulseboard/test-kit';
import { loadStoreEnv } from './env.ts';
import { startStoreService, type StoreService } from './service.ts';

describe('store: bad messages go to the dead-letter topic, good ones are stored', () => {
  const env = serviceTestEnv();
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const projectKey = uniqueName('dlq');
  let store: StoreService | undefined;
  const producer = testKafka().producer();

  beforeAll(async () => {
    store = await startStoreService(loadStoreEnv(env));
    await producer.connect();
  });
  afterAll(async () => {
    await store?.stop();
    await producer.disconnect();
    await db.end();
  });

  it('parks undecodable and schema-violating messages with why and where from, and stores the rest', async () => {
    const good = {
      id: 9_000_000_000_000 + Math.floor(Math.random() * 1e9),
      project_key: projectKey,
      account_id: 1,
      type: 'uptime',
      name: 'http_check',
      timestamp: '2026-11-01T10:00:00Z',
      received_at: '2026-11-01T10:00:01.000Z',
      attributes: { is_up: true },
    };
    await producer.send({
      topic: env.TOPIC_EVENTS!,
      messages: [
        { key: projectKey, value: '{not json', headers: { origin: 'test' } },
        { key: projectKey, value: JSON.stringify({ ...good, id: 'seven' }) },
        { key: projectKey, value: JSON.stringify(good) },
      ],
    });

    await waitFor(async () => (await topicMessageCount(env.TOPIC_EVENTS_DLQ!)) === 2, { what: 'two dead letters' });
    const letters = await readTopic(env.TOPIC_EVENTS_DLQ!);
    const byReason = Object.fromEntries(letters.map((l) => [l.headers['pb-dlq-reason'], l]));
    expect(Object.keys(byReason).sort()).toEqual(['invalid_json', 'schema_violation']);
    const bad = byReason.invalid_json!;
    expect(bad.key).toBe(projectKey);
    expect(bad.value).toBe('{not json');
    expect(bad.headers.origin).toBe('test');
    expect(bad.headers['pb-dlq-topic']).toBe(env.TOPIC_EVENTS);
    expect(bad.headers['pb-dlq-partition']).toMatch(/^\d+$/);
    expect(bad.headers['pb-dlq-offset']).toMatch(/^\d+$/);
    expect(bad.headers['pb-dlq-consumer-group']).toBe(env.STORE_GROUP_ID);
    expect(Date.parse(bad.headers['pb-dlq-at'])).not.toBeNaN();

    await waitFor(async () => (await db.query('SELECT 1 FROM events WHERE id = $1', [good.id])).rowCount === 1, { what: 'good event stored' });
  });

  it('committed past the dead letters: a restarted consumer does not park them again', async () => {
    await store!.stop();
    store = await startStoreService(loadStoreEnv(env));
    // A marker message proves the restarted consumer has caught up.
    const marker = {
      id: 9_100_000_000_000 + Math.floor(Math.random() * 1e9),
      project_key: projectKey,
      account_id: 1,
      type: 'metric',
      name: 'cpu_usage',
      timestamp: '2026-11-01T10:00:00Z',
      received_at: '2026-11-01T10:00:01.000Z',
      attributes: {},
    };
    await producer.send({ topic: env.TOPIC_EVENTS!, messages: [{ key: projectKey, value: JSON.stringify(marker) }] });
    await waitFor(async () => (await db.query('SELECT 1 FROM events WHERE id = $1', [marker.id])).rowCount === 1, { what: 'marker stored' });
    expect(await topicMessageCount(env.TOPIC_EVENTS_DLQ!)).toBe(2);
  });

  it('creates the events topics (when it starts first) with room for a 1 MiB event and its dead letter', async () => {
    const admin = testKafka().admin();
    await admin.connect();
    try {
      for (const topic of [env.TOPIC_EVENTS!, env.TOPIC_EVENTS_DLQ!]) {
        const config = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['max.message.bytes'] }],
        });
        expect(Number(config.resources[0]!.configEntries[0]!.configValue)).toBeGreaterThan(2 * 1024 * 1024);
      }
    } finally {
      await admin.disconnect();
    }
  });
});
