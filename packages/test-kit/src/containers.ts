import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { RedisContainer } from '@testcontainers/redis';
import { Kafka, logLevel } from 'kafkajs';
import { freePort } from './processes.ts';
import { waitFor } from './wait-for.ts';

/**
 * TEST_INFRA=containers: the integration tests' Kafka, Postgres and Redis are
 * containers that testcontainers starts, from the official images unless
 * KAFKA_IMAGE, POSTGRES_IMAGE or REDIS_IMAGE name others (CI names the local
 * equivalents that deploy/images.sh builds). Otherwise (the default) they are
 * the machine's own processes, started by deploy/infra.sh.
 */
export function usesContainers(): boolean {
  return process.env.TEST_INFRA === 'containers';
}

export const images = {
  kafka: () => process.env.KAFKA_IMAGE ?? 'apache/kafka:4.4.0',
  postgres: () => process.env.POSTGRES_IMAGE ?? 'postgres:15',
  redis: () => process.env.REDIS_IMAGE ?? 'redis:7',
};

export interface ContainerInfra {
  kafkaBrokers: string;
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * A single-node KRaft broker configured like deploy/kafka.sh's (apache/kafka's
 * KAFKA_* variables), published on `hostPort` of 127.0.0.1 and advertised
 * there, so clients on this machine reach it the way they reach a local one.
 */
function kafkaContainer(hostPort: number): GenericContainer {
  return new GenericContainer(images.kafka())
    .withExposedPorts({ container: 9092, host: hostPort })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${hostPort}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_NUM_PARTITIONS: '3',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '10',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
      KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
    })
    .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
    .withStartupTimeout(120_000);
}

/** Until a client can use the broker (the log line comes just before it takes requests). */
async function kafkaAnswers(brokers: string, timeoutMs = 60_000): Promise<void> {
  const admin = new Kafka({ clientId: 'pulseboard-tests-probe', brokers: [brokers], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
  await waitFor(
    async () => {
      try {
        await admin.connect();
        await admin.describeCluster();
        return true;
      } catch {
        return false;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    },
    { timeoutMs, what: `Kafka at ${brokers}`, intervalMs: 250 },
  );
}

/** Kafka, Postgres and Redis containers for one integration run. */
export async function startContainerInfra(): Promise<ContainerInfra> {
  const kafkaPort = await freePort();
  const started: StartedTestContainer[] = [];
  const stop = async () => void (await Promise.all(started.map((c) => c.stop({ timeout: 5_000 }).catch(() => undefined))));
  try {
    const [kafka, postgres, redis] = await Promise.all([
      kafkaContainer(kafkaPort).start(),
      new PostgreSqlContainer(images.postgres())
        .withUsername('postgres')
        .withPassword('pulseboard')
        .withDatabase('pulseboard_test')
        // A test database: room for every service process of a run, and no waiting on the disk.
        .withCommand(['postgres', '-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'])
        .start(),
      new RedisContainer(images.redis()).start(),
    ]);
    started.push(kafka, postgres, redis);
    const kafkaBrokers = `127.0.0.1:${kafkaPort}`;
    await kafkaAnswers(kafkaBrokers);
    return {
      kafkaBrokers,
      databaseUrl: postgres.getConnectionUri().replace('localhost', '127.0.0.1'),
      redisUrl: `redis://127.0.0.1:${redis.getMappedPort(6379)}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A private broker container for tests that stop and start it: stopped and
 * started as the same container (same data, same port), removed by `destroy`.
 */
export async function startPrivateBrokerContainer(): Promise<{ brokers: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  const port = await freePort();
  const container = await kafkaContainer(port).start();
  const brokers = `127.0.0.1:${port}`;
  await kafkaAnswers(brokers);
  const docker = (await getContainerRuntimeClient()).container.getById(container.getId());
  return {
    brokers,
    stop: async () => void (await docker.stop({ t: 10 })),
    start: async () => {
      await docker.start();
      await kafkaAnswers(brokers, 120_000);
    },
    destroy: async () => void (await container.stop({ timeout: 5_000 })),
  };
}

/**
 * A three-master Redis Cluster in containers on the host's network (cluster
 * nodes announce addresses their peers and clients must all reach, which
 * published ports cannot give), on free ports of 127.0.0.1.
 */
export async function startRedisClusterContainers(): Promise<{ nodes: string; ports: number[]; stop(): Promise<void> }> {
  const ports: number[] = [];
  const started: StartedTestContainer[] = [];
  const stop = async () => void (await Promise.all(started.map((c) => c.stop({ timeout: 2_000 }).catch(() => undefined))));
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const busPort = await freePort([port]);
      ports.push(port);
      started.push(
        await new GenericContainer(images.redis())
          .withNetworkMode('host')
          .withCommand([
            'redis-server',
            '--port',
            String(port),
            '--cluster-port',
            String(busPort),
            '--bind',
            '127.0.0.1',
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            `nodes-${port}.conf`,
            '--save',
            '',
            '--appendonly',
            'no',
          ])
          .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
          .start(),
      );
    }
    const created = await started[0]!.exec([
      'redis-cli',
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    if (created.exitCode !== 0) throw new Error(`redis-cli --cluster create: ${created.output}`);
    for (const port of ports) {
      await waitFor(async () => (await started[0]!.exec(['redis-cli', '-p', String(port), 'cluster', 'info'])).output.includes('cluster_state:ok'), {
        timeoutMs: 20_000,
        what: `cluster state ok on ${port}`,
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), ports, stop };
}

/**
 * A private Postgres container for tests that stop and start it: published on
 * a fixed host port (a restarted container keeps it), stopped and started as
 * the same container (same data), removed by `destroy`.
 */
export async function startPrivatePostgresContainer(): Promise<{
  url: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}> {
  const port = await freePort();
  const container = await new PostgreSqlContainer(images.postgres())
    .withUsername('postgres')
    .withPassword('pulseboard')
    .withDatabase('postgres')
    .withExposedPorts({ container: 5432, host: port })
    .withCommand(['postgres', '-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'])
    .start();
  const urlFor = (database: string) => `postgres://postgres:pulseboard@127.0.0.1:${port}/${database}`;
  const { postgresAnswers } = await import('./private-postgres.ts');
  await postgresAnswers(urlFor('postgres'));
  const docker = (await getContainerRuntimeClient()).container.getById(container.getId());
  return {
    url: urlFor('postgres'),
    urlFor,
    // SIGTERM to postgres in the official image: a smart shutdown; SIGINT is `-m fast`, as the restart.
    stop: async () =>
      void (await docker
        .kill({ signal: 'SIGINT' })
        .then(() => waitFor(async () => !(await docker.inspect()).State.Running, { timeoutMs: 60_000, what: 'the Postgres container to stop' }))),
    start: async () => {
      await docker.start();
      await postgresAnswers(urlFor('postgres'), 120_000);
    },
    destroy: async () => void (await container.stop({ timeout: 5_000 })),
  };
}
