/**
 * Consumer lag per instance, sampled: for each group, the partitions the
 * group coordinator assigned to each member (told apart by its Kafka client
 * id, `bench-<service>-<n>`), and per partition the topic's end offset minus
 * the group's position. The store and the rule engine keep their positions in
 * Postgres with their effects (store_offsets, rule_engine_offsets: the truth,
 * read here); the notification service commits to Kafka.
 */
import type { testKafka } from '@pulseboard/test-kit';
import type pg from 'pg';

type Admin = ReturnType<ReturnType<typeof testKafka>['admin']>;

export interface Watched {
  service: string;
  groupId: string;
  topic: string;
  /** Postgres table of the group's positions; none: Kafka's committed offsets. */
  table?: string;
}

/** [ms since the sampler started, instance → lag in messages]. */
export type Sample = [number, Map<string, number>];

/** kafkajs ConsumerProtocol MemberAssignment: int16 version, [topic string, [int32 partition]], bytes user data. */
export function decodeAssignment(buffer: Buffer): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (buffer.length < 6) return out;
  let at = 2;
  const topics = buffer.readInt32BE(at);
  at += 4;
  for (let t = 0; t < topics; t++) {
    const length = buffer.readInt16BE(at);
    at += 2;
    const topic = buffer.toString('utf8', at, at + length);
    at += length;
    const count = buffer.readInt32BE(at);
    at += 4;
    const partitions: number[] = [];
    for (let i = 0; i < count; i++, at += 4) partitions.push(buffer.readInt32BE(at));
    out.set(topic, partitions);
  }
  return out;
}

export class LagSampler {
  readonly samples: Sample[] = [];
  private timer?: NodeJS.Timeout;
  private started = 0;
  private groups?: Awaited<ReturnType<Admin['describeGroups']>>['groups'];
  private groupsAt = 0;

  constructor(
    private readonly admin: Admin,
    private readonly db: pg.Pool,
    private readonly watched: Watched[],
  ) {}

  /** One reading: instance label (`<client id> `) → messages behind, summed over its partitions. */
  async read(): Promise<Map<string, number>> {
    const lag = new Map<string, number>();
    // Assignments change only on a rebalance: read again every 5 s, not every sample (a reading is slow on a loaded machine).
    if (this.groups === undefined || Date.now() - this.groupsAt > 5000) {
      this.groups = (await this.admin.describeGroups(this.watched.map((w) => w.groupId))).groups;
      this.groupsAt = Date.now();
    }
    const groups = this.groups;
    const perGroup = await Promise.all(
      this.watched.map(async (w) => {
        const ends = new Map((await this.admin.fetchTopicOffsets(w.topic)).map((o) => [o.partition, Number(o.high)]));
        const position = new Map<number, number>();
        if (w.table !== undefined) {
          const { rows } = await this.db.query<{ partition: number; next_offset: string }>(`SELECT partition, next_offset FROM ${w.table} WHERE topic = $1`, [
            w.topic,
          ]);
          for (const r of rows) position.set(r.partition, Number(r.next_offset));
        } else {
          const [committed] = await this.admin.fetchOffsets({ groupId: w.groupId, topics: [w.topic] });
          for (const p of committed?.partitions ?? []) if (Number(p.offset) >= 0) position.set(p.partition, Number(p.offset));
        }
        return { w, ends, position };
      }),
    );
    for (const { w, ends, position } of perGroup) {
      const group = groups.find((g) => g.groupId === w.groupId);
      for (const member of group?.members ?? []) {
        const partitions = decodeAssignment(member.memberAssignment).get(w.topic) ?? [];
        // Client ids are `bench-<service>-<n>-<service>` (the service appends its own name); a lone instance keeps the default.
        const label = member.clientId.startsWith('bench-') ? member.clientId.slice('bench-'.length, -(w.service.length + 1)) : w.service;
        let behind = 0;
        for (const p of partitions) behind += Math.max(0, (ends.get(p) ?? 0) - (position.get(p) ?? 0));
        lag.set(label, (lag.get(label) ?? 0) + behind);
      }
    }
    return lag;
  }

  private running?: Promise<void>;

  private async sample(): Promise<void> {
    try {
      this.samples.push([Date.now() - this.started, await this.read()]);
    } catch {
      // a rebalance or a slow broker: no sample this time
    }
  }

  /** Samples every `intervalMs` (or as fast as a reading takes, when that is longer). */
  start(intervalMs: number): void {
    this.started = Date.now();
    const tick = () => {
      this.running = this.sample().then(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Stops sampling, takes one last reading (after the drain: every lag should be back to 0) and hands over the samples. */
  async stop(): Promise<Sample[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.sample();
    return this.samples.splice(0);
  }
}
