import type { Admin, Consumer, Kafka } from 'kafkajs';
import { Gauge, Histogram, type Registry } from 'prom-client';

export interface LaggingGroup {
  groupId: string;
  topic: string;
}

export interface KafkaInstrumentation {
  /**
   * Readiness: every consumer the service cannot work without is in its group. A consumer
   * that was stopped leaves the membership read here; one of a `transient` group (made and
   * stopped while the service runs, broadcast's live tail) never counts, crashed or not.
   */
  joined(): boolean;
  /** Closes the admin client the lag is read with. */
  stop(): Promise<void>;
}

// A fan-out consumer's group ends in a random UUID: the label keeps the stable prefix.
const groupLabel = (groupId: string) => groupId.replace(/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, '');
const LAG_READ_TIMEOUT_MS = 3000;

/**
 * Operator signals of the consumers `kafka` makes (call before making any): batch sizes and
 * handling time per group and topic, group membership for readiness, and the lag of the
 * `lagging` groups per partition, read at each scrape the way KEDA's Kafka scaler and
 * kafka-exporter read it: the partition's end offset minus the group's committed offset.
 * Every instance of a group reports the whole group's lag; aggregate with max by
 * (group, topic, partition). The end offsets of `watchedTopics` (dead-letter topics) are
 * read likewise: their increase is how many letters were written, whoever wrote them.
 */
export function instrumentKafka(
  kafka: Kafka,
  registry: Registry,
  options: {
    lagging?: LaggingGroup[];
    watchedTopics?: string[];
    /** Group-id prefixes of consumers readiness does not wait for: started on demand and stopped again (broadcast's tail). */
    transient?: string[];
  } = {},
): KafkaInstrumentation {
  const batchMessages = new Histogram({
    name: 'pulseboard_kafka_consumer_batch_messages',
    help: 'Messages per batch a consumer handled',
    labelNames: ['group', 'topic'],
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: 'pulseboard_kafka_consumer_batch_seconds',
    help: 'Time a consumer took to handle one batch',
    labelNames: ['group', 'topic'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // The required consumers and whether each is in its group now. A stopped one is deleted (it left on
  // purpose: shutdown); kafkajs emits STOP before CRASH, so a crash that restarts puts it back as not
  // joined until it rejoins, and one that does not restart leaves it not joined for good (not ready:
  // the service cannot work without it).
  const members = new Map<Consumer, boolean>();
  const transient = options.transient ?? [];
  const makeConsumer = kafka.consumer.bind(kafka);
  kafka.consumer = (config) => {
    const consumer = makeConsumer(config);
    const group = groupLabel(config.groupId);
    if (!transient.some((prefix) => config.groupId.startsWith(prefix))) {
      members.set(consumer, false);
      consumer.on(consumer.events.GROUP_JOIN, () => members.set(consumer, true));
      for (const gone of [consumer.events.STOP, consumer.events.DISCONNECT] as const)
        consumer.on(gone as typeof consumer.events.STOP, () => members.delete(consumer));
      consumer.on(consumer.events.CRASH, () => members.set(consumer, false));
    }
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      batchMessages.observe({ group, topic: payload.topic }, payload.batchSize);
      batchSeconds.observe({ group, topic: payload.topic }, payload.duration / 1000);
    });
    return consumer;
  };

  let admin: Promise<Admin> | undefined;
  const connected = () =>
    (admin ??= (async () => {
      const a = kafka.admin({ retry: { retries: 0 } });
      await a.connect();
      return a;
    })());
  /** Reads with the shared admin client, bounded in time; undefined (and a fresh client next time) when the broker does not answer. */
  const read = async <R>(work: (client: Admin) => Promise<R>): Promise<R | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('kafka read timed out')), LAG_READ_TIMEOUT_MS)));
    try {
      return await Promise.race([connected().then(work), timeout]);
    } catch {
      const stale = admin;
      admin = undefined;
      void stale?.then((a) => a.disconnect()).catch(() => undefined);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  const watched = options.watchedTopics ?? [];
  if (watched.length > 0) {
    new Gauge({
      name: 'pulseboard_kafka_topic_end_offset',
      help: 'The end offset of a watched topic partition (dead-letter topics): its increase is the messages written',
      labelNames: ['topic', 'partition'],
      registers: [registry],
      async collect() {
        this.reset();
        const ends = await read((client) => Promise.all(watched.map(async (topic) => ({ topic, ends: await client.fetchTopicOffsets(topic) }))));
        for (const { topic, ends: partitions } of ends ?? [])
          for (const end of partitions) this.set({ topic, partition: String(end.partition) }, Number(end.high));
      },
    });
  }
  const lagging = options.lagging ?? [];
  if (lagging.length > 0) {
    new Gauge({
      name: 'pulseboard_kafka_consumer_lag',
      help: "Messages of a partition the group has not committed yet (end offset minus the group's committed offset)",
      labelNames: ['group', 'topic', 'partition'],
      registers: [registry],
      async collect() {
        this.reset();
        // Broker unreachable: no lag series this scrape rather than a stale one (the scrape itself succeeds).
        const results = await read((client) =>
          Promise.all(
            lagging.map(async ({ groupId, topic }) => ({
              groupId,
              topic,
              ends: await client.fetchTopicOffsets(topic),
              committed: await client.fetchOffsets({ groupId, topics: [topic] }),
            })),
          ),
        );
        for (const { groupId, topic, ends, committed } of results ?? []) {
          const offsets = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
          for (const end of ends) {
            const at = offsets.get(end.partition) ?? -1n;
            // Nothing committed yet: the group starts at the earliest offset still kept.
            const lag = BigInt(end.high) - (at < 0n ? BigInt(end.low) : at);
            this.set({ group: groupLabel(groupId), topic, partition: String(end.partition) }, Number(lag < 0n ? 0n : lag));
          }
        }
      },
    });
  }

  return {
    joined: () => members.size > 0 && [...members.values()].every(Boolean),
    async stop() {
      const open = admin;
      admin = undefined;
      await open?.then((a) => a.disconnect()).catch(() => undefined);
    },
  };
}
