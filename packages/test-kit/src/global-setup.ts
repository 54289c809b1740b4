import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrateAll } from '@pulseboard/db';
import { randomUUID } from 'node:crypto';
import { TEST_DATABASE_URL, TEST_REDIS_URL, testTopicPrefix } from './env.ts';
import { testKafka } from './kafka.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Integration tests run against the real broker, Postgres and Redis, never a
 * fake: start them (idempotent), migrate a test database, and fail loudly,
 * rather than skip, when something does not answer.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Inherited by the test workers, which start after this.
  process.env.PULSEBOARD_TEST_RUN = randomUUID().slice(0, 8);
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL } });
  await migrateAll(TEST_DATABASE_URL, root);
  const admin = testKafka().admin();
  await admin.connect();
  const cluster = await admin.describeCluster();
  console.log(`integration tests: real Kafka cluster ${cluster.clusterId} with ${cluster.brokers.length} broker(s) at ${cluster.brokers.map((b) => `${b.host}:${b.port}`).join(', ')}; Postgres ${TEST_DATABASE_URL}; Redis ${TEST_REDIS_URL}`);
  await admin.disconnect();

  // Leave the shared broker as we found it: drop the topics this run created.
  return async () => {
    const cleaner = testKafka().admin();
    await cleaner.connect();
    try {
      const prefix = testTopicPrefix();
      const mine = (await cleaner.listTopics()).filter((t) => t.startsWith(prefix));
      if (mine.length > 0) await cleaner.deleteTopics({ topics: mine, timeout: 30000 });
    } finally {
      await cleaner.disconnect();
    }
  };
}
