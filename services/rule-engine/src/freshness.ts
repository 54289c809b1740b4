import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { freshnessOf, type PartitionEnds } from '@pulseboard/contracts';
import type { EndOffsetsReader } from '@pulseboard/kafka-kit';

/** How often the engine reads the end offsets and writes its partitions' progress: freshness is accurate to about this. */
export const FRESHNESS_REPORT_MS = 1000;

/** The claim of a partition as the consumer keeps it: its `nextOffset` moves as batches commit (dropped messages included). */
export interface LiveClaim {
  readonly epoch: number;
  readonly nextOffset: bigint;
}

/** What the engine tells the reporter as it claims, applies and releases partitions. */
export interface ProgressListener {
  claimed(partition: number, claim: LiveClaim): void;
  released(partition: number): void;
  /** A batch committed: the receipt (epoch ms) of its newest event. */
  applied(partition: number, receivedAt: number): void;
}

interface Progress {
  claim: LiveClaim;
  newestReceivedAt: number | null;
  /** When the end offsets read last showed nothing waiting (the read's start: all acknowledged before it was applied). */
  caughtUpAt: number | null;
}

const caughtUp = (nextOffset: bigint, ends: PartitionEnds) => (nextOffset < 0n ? ends.high <= ends.low : nextOffset >= ends.high);
const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Freshness of the partitions this instance owns (docs/operations.md,
 * "Freshness"): every second it reads the events topic's end offsets, notes
 * the partitions with nothing waiting, and writes each partition's next offset
 * and `applied_through` (rule_engine_freshness, the gateway's source for
 * `GET /api/v1/projects/{key}`). Outside the batches' transactions: the hot
 * path gains no statement. Exports `pulseboard_rule_engine_tiles_behind_seconds`
 * per partition (bounded: partitions, never projects).
 */
export class FreshnessReporter implements ProgressListener {
  private readonly partitions = new Map<number, Progress>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly deps: { pool: Pool; topic: string; ends: EndOffsetsReader; logger: Logger; registry: Registry }) {
    const partitions = this.partitions;
    new Gauge({
      name: 'pulseboard_rule_engine_tiles_behind_seconds',
      help: "How far behind live the tiles of an events partition's projects are: 0 when every acknowledged event is applied, else seconds since the newest applied event was received",
      labelNames: ['partition'],
      registers: [deps.registry],
      async collect() {
        this.reset();
        const ends = await deps.ends.read();
        const now = Date.now();
        for (const [partition, p] of partitions) {
          const f = freshnessOf(
            { nextOffset: p.claim.nextOffset, appliedThrough: latest(p.newestReceivedAt, p.caughtUpAt) },
            ends?.partitions.get(partition),
            now,
          );
          if (f.behind_seconds !== null) this.set({ partition: String(partition) }, f.behind_seconds);
        }
      },
    });
  }

  claimed(partition: number, claim: LiveClaim): void {
    this.partitions.set(partition, { claim, newestReceivedAt: null, caughtUpAt: null });
  }

  released(partition: number): void {
    this.partitions.delete(partition);
  }

  applied(partition: number, receivedAt: number): void {
    const p = this.partitions.get(partition);
    if (p !== undefined && !Number.isNaN(receivedAt)) p.newestReceivedAt = latest(p.newestReceivedAt, receivedAt);
  }

  /** One round: end offsets read, caught-up partitions noted, every owned partition's row written. */
  async report(): Promise<void> {
    const ends = await this.deps.ends.read();
    for (const [partition, p] of this.partitions) {
      const e = ends?.partitions.get(partition);
      if (ends !== undefined && e !== undefined && caughtUp(p.claim.nextOffset, e)) p.caughtUpAt = latest(p.caughtUpAt, ends.at);
    }
    const rows = [...this.partitions];
    if (rows.length === 0) return;
    const through = (p: Progress) => latest(p.newestReceivedAt, p.caughtUpAt);
    await this.deps.pool.query(
      `INSERT INTO rule_engine_freshness AS f (topic, partition, next_offset, applied_through, epoch, updated_at)
         SELECT $1, u.partition, u.next_offset, u.applied_through, u.epoch, now()
           FROM unnest($2::int[], $3::bigint[], $4::timestamptz[], $5::bigint[]) AS u(partition, next_offset, applied_through, epoch)
         ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset,
           applied_through = coalesce(excluded.applied_through, f.applied_through), epoch = excluded.epoch, updated_at = now()
         WHERE f.epoch <= excluded.epoch`,
      [
        this.deps.topic,
        rows.map(([partition]) => partition),
        rows.map(([, p]) => p.claim.nextOffset.toString()),
        rows.map(([, p]) => {
          const ms = through(p);
          return ms === null ? null : new Date(ms).toISOString();
        }),
        rows.map(([, p]) => p.claim.epoch),
      ],
    );
  }

  start(intervalMs = FRESHNESS_REPORT_MS): void {
    this.timer = setInterval(() => {
      this.round ??= this.report()
        .then(() => {
          this.failing = false;
        })
        .catch((error: unknown) => {
          // Postgres away: readers see the partition fall behind, which it may well be. Said once per outage.
          if (!this.failing) this.deps.logger.warn({ event: 'freshness_report_failed', err: error });
          this.failing = true;
        })
        .finally(() => (this.round = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
    await this.deps.ends.stop();
  }
}
