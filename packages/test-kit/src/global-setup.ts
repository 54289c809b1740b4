import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrateAll } from '@pulseboard/db';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './env.ts';
import { testKafka } from './kafka.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Integration tests run against the real broker, Postgres and Redis, never a
 * fake: start them (idempotent), migrate a test database, and fail loudly,
 * rather than skip, when something does not answer.
 */
export default async function setup(): Promise<void> {
  execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL } });
  await migrateAll(TEST_DATABASE_URL, root);
  const admin = testKafka().admin();
  await admin.connect();
  const cluster = await admin.describeCluster();
  await admin.disconnect();
  console.log(`integration tests: real Kafka cluster ${cluster.clusterId} with ${cluster.brokers.length} broker(s) at ${cluster.brokers.map((b) => `${b.host}:${b.port}`).join(', ')}; Postgres ${TEST_DATABASE_URL}; Redis ${TEST_REDIS_URL}`);
}
