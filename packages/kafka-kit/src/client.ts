import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { PulseboardError } from '@pulseboard/contracts';

/**
 * TLS and SASL of a client (from @pulseboard/config's `kafkaSecurity(env)`), with what to check,
 * by setting name, when the brokers refuse us: the start-up error says it instead of kafkajs' own.
 */
export interface KafkaClientSecurity {
  ssl?: KafkaConfig['ssl'];
  sasl?: KafkaConfig['sasl'];
  authenticationHint?: string;
  tlsHint?: string;
  /** What to check when no broker could be used at all (kafkajs takes a refused OAUTHBEARER token for a success, then loses every connection). */
  unusableHint?: string;
}

// Node's codes for a peer certificate that the CA bundle does not verify or that names another host.
const TLS_TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function causes(error: unknown): { name?: string; code?: string; message?: string }[] {
  const chain: { name?: string; code?: string; message?: string }[] = [];
  let current = error as { name?: string; code?: string; message?: string; cause?: unknown; originalError?: unknown } | undefined;
  while (current !== undefined && current !== null && chain.length < 10) {
    chain.push(current);
    current = (current.cause ?? current.originalError) as typeof current;
  }
  return chain;
}

/** A refusal to authenticate, or a broker certificate we do not trust, said with the settings to check; anything else as it was. */
export function explainKafkaError(error: unknown, clientId: string, security: KafkaClientSecurity): unknown {
  const chain = causes(error);
  const sasl = chain.find((e) => e.name === 'KafkaJSSASLAuthenticationError');
  if (sasl !== undefined && security.authenticationHint !== undefined) {
    return new PulseboardError('invalid_configuration', {
      message: `Kafka refused to authenticate ${clientId} (${sasl.message}): ${security.authenticationHint}`,
      cause: error,
    });
  }
  const tls = chain.find((e) => e.code !== undefined && TLS_TRUST_CODES.has(e.code));
  if (tls !== undefined && security.tlsHint !== undefined) {
    return new PulseboardError('invalid_configuration', {
      message: `${clientId} does not trust the Kafka brokers' certificate (${tls.code}: ${tls.message}): ${security.tlsHint}`,
      cause: error,
    });
  }
  const unusable = chain.find((e) => e.name === 'KafkaJSBrokerNotFound' || e.name === 'KafkaJSConnectionClosedError');
  if (unusable !== undefined && security.unusableHint !== undefined) {
    return new PulseboardError('invalid_configuration', {
      message: `${clientId} could not use any Kafka broker (${unusable.message}): ${security.unusableHint}`,
      cause: error,
    });
  }
  return error;
}

const explainers = new WeakMap<Kafka, (error: unknown) => unknown>();

/** Runs `work` with the client's own explanation of a failure (see explainKafkaError), for steps past connect(). */
async function explaining<T>(kafka: Kafka, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw explainers.get(kafka)?.(error) ?? error;
  }
}

/** A client whose connect() rejects with explainKafkaError's words. */
function explained<T extends { connect(): Promise<void> }>(client: T, explain: (error: unknown) => unknown): T {
  const connect = client.connect.bind(client);
  client.connect = () => connect().catch((error: unknown) => Promise.reject(explain(error)));
  return client;
}

/**
 * kafkajs logs through our pino logger, as `kafka_*` events, at warn and above by default.
 * `security`: TLS and SASL for every producer, consumer and admin made from it.
 */
export function createKafka(options: {
  clientId: string;
  brokers: string[];
  logger: Logger;
  connectionTimeoutMs?: number;
  security?: KafkaClientSecurity;
}): Kafka {
  const logCreator: KafkaConfig['logCreator'] = () => (entry: LogEntry) => {
    const { message, ...context } = entry.log;
    const fields = { event: 'kafka_client_log', namespace: entry.namespace, kafka_message: message, ...context };
    if (entry.level === logLevel.ERROR) options.logger.error(fields);
    else if (entry.level === logLevel.WARN) options.logger.warn(fields);
    else options.logger.debug(fields);
  };
  const security = options.security ?? {};
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    logCreator,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 8 },
    ...(security.ssl !== undefined ? { ssl: security.ssl } : {}),
    ...(security.sasl !== undefined ? { sasl: security.sasl } : {}),
  });
  if (security.authenticationHint === undefined && security.tlsHint === undefined && security.unusableHint === undefined) return kafka;
  const explain = (error: unknown) => explainKafkaError(error, options.clientId, security);
  explainers.set(kafka, explain);
  const { admin, producer, consumer } = kafka;
  kafka.admin = (config) => explained(admin.call(kafka, config), explain);
  kafka.producer = (config) => explained(producer.call(kafka, config), explain);
  kafka.consumer = (config) => explained(consumer.call(kafka, config), explain);
  return kafka;
}

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  /** Topic-level configuration applied when the topic is created (e.g. `max.message.bytes`). */
  configEntries?: { name: string; value: string }[];
}

const RETRIABLE_METADATA = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'REQUEST_TIMED_OUT']);

function errorTypes(error: unknown): string[] {
  const e = error as { type?: unknown; errors?: unknown[] } | null;
  const own = typeof e?.type === 'string' ? [e.type] : [];
  const inner = Array.isArray(e?.errors) ? e.errors.flatMap(errorTypes) : [];
  return [...own, ...inner];
}

/**
 * Creates topics that do not exist yet (existing ones are left as they are),
 * then waits, bounded, until every partition of every topic has a leader. The
 * wait is ours, not kafkajs' `waitForLeaders`: on a KRaft broker a new topic is
 * briefly unknown to the metadata (UNKNOWN_TOPIC_OR_PARTITION), which kafkajs
 * does not retry, and a service or test then failed to start under load.
 */
export function ensureTopics(kafka: Kafka, topics: TopicSpec[], options: { timeoutMs?: number } = {}): Promise<void> {
  // Every service's first use of Kafka: a failure here is said with the settings to check.
  return explaining(kafka, () => createAndAwaitTopics(kafka, topics, options));
}

async function createAndAwaitTopics(kafka: Kafka, topics: TopicSpec[], options: { timeoutMs?: number }): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      try {
        await admin.createTopics({ waitForLeaders: false, topics: missing.map((t) => ({ ...t, replicationFactor: -1 })) });
      } catch (error) {
        // Another process (the store, another gateway) created it meanwhile.
        const types = errorTypes(error);
        if (types.length === 0 || !types.every((type) => type === 'TOPIC_ALREADY_EXISTS')) throw error;
      }
    }
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
        if (metadata.length === topics.length && metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        if (!errorTypes(error).some((type) => RETRIABLE_METADATA.has(type))) throw error;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for leaders of ${topics.map((t) => t.topic).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

/** How many partitions a topic has (the topic must exist). */
export async function partitionCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}
