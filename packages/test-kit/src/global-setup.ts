import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { migrateAll } from '@pulseboard/db';
import { TEST_DATABASE_URL, TEST_KAFKA_BROKERS, TEST_REDIS_URL, testTopicPrefix } from './env.ts';
import { testKafka } from './kafka.ts';
import { createRunDatabase } from './run-database.ts';
import { images, startContainerInfra, usesContainers, type ContainerInfra } from './containers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Integration tests run against the real broker, Postgres and Redis, never a
 * fake: the machine's own (started here when they are not running), or, with
 * TEST_INFRA=containers, containers that testcontainers starts. Then a test
 * database of this run's own is migrated. Fails loudly, rather than skip, when
 * something does not answer.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const t0 = Date.now();
  // Everything set in process.env here is inherited by the test workers, which start after this.
  process.env.PULSEBOARD_TEST_RUN = randomUUID().slice(0, 8);
  let containers: ContainerInfra | undefined;
  if (usesContainers()) {
    containers = await startContainerInfra();
    process.env.TEST_KAFKA_BROKERS = containers.kafkaBrokers;
    process.env.TEST_REDIS_URL = `${containers.redisUrl}/1`;
  } else {
    execFileSync('bash', [`${root}deploy/infra.sh`, 'up'], {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL },
    });
  }
  const brokers = process.env.TEST_KAFKA_BROKERS ?? TEST_KAFKA_BROKERS;
  // A database of this run's own, migrated from nothing: no earlier run's (or
  // another branch's) schema or rows can decide this run's outcome.
  const database = await createRunDatabase(containers?.databaseUrl ?? TEST_DATABASE_URL, process.env.PULSEBOARD_TEST_RUN);
  process.env.TEST_DATABASE_URL = database.url;
  await migrateAll(database.url, root);
  const admin = testKafka(brokers).admin();
  await admin.connect();
  const cluster = await admin.describeCluster();
  await admin.disconnect();
  const where = containers === undefined ? 'local processes' : `containers (${images.kafka()}, ${images.postgres()}, ${images.redis()})`;
  console.log(
    `integration tests on ${where}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: Kafka cluster ${cluster.clusterId} with ${cluster.brokers.length} broker(s) at ${cluster.brokers.map((b) => `${b.host}:${b.port}`).join(', ')}; Postgres ${database.url}; Redis ${process.env.TEST_REDIS_URL ?? TEST_REDIS_URL}`,
  );

  // Leave the shared broker as we found it: drop the topics and the database this run created.
  return async () => {
    await database.drop();
    if (containers !== undefined) return containers.stop();
    const cleaner = testKafka(brokers).admin();
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
