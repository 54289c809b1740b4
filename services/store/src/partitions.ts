import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { DAY_MS } from '@pulseboard/contracts';
import { projectRetentions } from '@pulseboard/control-plane';

// One store instance at a time applies retention (partitions are created by
// store_ensure_day_partitions, a function of the store's migrations, one caller at a time).
const MAINTENANCE_LOCK = 'pulseboard-store-retention';

export interface PartitionKeeperOptions {
  pool: Pool;
  logger: Logger;
  /** Epoch ms; injectable for tests. */
  clock: () => number;
  /** Retention of a project that sets none (EVENT_RETENTION_DAYS). */
  defaultRetentionDays: number;
  /** Days of partitions kept ready after today. */
  aheadDays: number;
  /** Rows deleted per statement when a project's own retention is shorter than the partitions'. */
  deleteBatchSize?: number;
}

export interface MaintenanceReport {
  created: string[];
  dropped: string[];
  /** Events deleted per project whose retention is shorter than the partitions kept. */
  expired: Record<string, number>;
}

interface Range {
  name: string;
  from: number;
  to: number;
}

const day = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `FOR VALUES FROM (...) TO (...)` of a range partition, in epoch ms (MINVALUE: -Infinity). */
export function parseBound(expr: string): { from: number; to: number } {
  const m = /FROM \((MINVALUE|'[^']+')\) TO \((MAXVALUE|'[^']+')\)/.exec(expr);
  if (m === null) throw new Error(`not a range bound: ${expr}`);
  const at = (v: string, infinite: number) =>
    v === 'MINVALUE' || v === 'MAXVALUE'
      ? infinite
      : Date.parse(
          v
            .slice(1, -1)
            .replace(' ', 'T')
            .replace(/([+-]\d\d)$/, '$1:00'),
        );
  return { from: at(m[1]!, -Infinity), to: at(m[2]!, Infinity) };
}

/**
 * The store's upkeep of the time partitions (CONTRACT Events, Retention):
 * creates each day's partitions before an event needs them (ahead of time,
 * and on demand for any day a batch brings), drops whole partitions once
 * every event in them is older than the longest retention in force, and
 * deletes, in small batches, what a project with a shorter retention no longer
 * keeps. Partitions are attached and detached without blocking writes or reads
 * (ATTACH takes SHARE UPDATE EXCLUSIVE; DETACH ... CONCURRENTLY).
 */
export class PartitionKeeper {
  private ranges: Range[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: PartitionKeeperOptions) {}

  /** The events partitions as the catalog has them now. */
  async refresh(): Promise<Range[]> {
    const { rows } = await this.options.pool.query<{ name: string; bound: string }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass AND NOT i.inhdetachpending`,
    );
    this.ranges = rows.map((r) => ({ name: r.name, ...parseBound(r.bound) })).sort((a, b) => a.from - b.from);
    return this.ranges;
  }

  private covered(dayMs: number): boolean {
    return this.ranges.some((r) => r.from <= dayMs && dayMs + DAY_MS <= r.to);
  }

  /** Makes sure the partitions of these UTC days (`YYYY-MM-DD` or epoch ms of the day) exist. */
  async ensure(days: Iterable<string | number>): Promise<string[]> {
    const wanted = [...new Set([...days].map((d) => (typeof d === 'number' ? day(d) : Date.parse(`${d}T00:00:00Z`))))];
    if (wanted.every((d) => this.covered(d))) return [];
    const { rows } = await this.options.pool.query<{ created: string[] }>('SELECT store_ensure_day_partitions($1::date[]) AS created', [wanted.map(isoDay)]);
    const created = rows[0]!.created;
    if (created.length > 0) this.options.logger.info({ event: 'partitions_created', partitions: created });
    await this.refresh();
    return created;
  }

  /**
   * The longest retention in force, in days: partitions younger than it are
   * all kept. A deleted project keeps its events no longer than the default
   * (its own shorter retention still holds): nobody can read them any more,
   * and its longer retention must not keep every project's partitions.
   */
  private async retentions(): Promise<{ longest: number; shorter: { projectKey: string; days: number }[] }> {
    const fallback = this.options.defaultRetentionDays;
    const rows = await projectRetentions(this.options.pool, fallback);
    const longest = Math.max(fallback, ...rows.map((r) => r.days));
    return { longest, shorter: rows.filter((r) => r.days < longest).map((r) => ({ projectKey: r.project_key, days: r.days })) };
  }

  /**
   * One round of upkeep: partitions from yesterday to `aheadDays` ahead;
   * partitions whose every event is older than the longest retention dropped
   * (with their daily counts); then each project with a shorter retention
   * loses its older events in batches. Skipped while another instance runs it.
   */
  async maintain(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { created: [], dropped: [], expired: {} };
    const lock = await this.options.pool.connect();
    try {
      const { rows } = await lock.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [MAINTENANCE_LOCK]);
      if (!rows[0]!.got) return report;
      try {
        const now = this.options.clock();
        const today = day(now);
        report.created = await this.ensure(Array.from({ length: this.options.aheadDays + 2 }, (_, i) => today + (i - 1) * DAY_MS));
        const { longest, shorter } = await this.retentions();
        const cutoff = now - longest * DAY_MS;
        for (const range of await this.refresh()) {
          if (range.to > cutoff) continue;
          await this.drop(range);
          report.dropped.push(range.name);
        }
        for (const { projectKey, days } of shorter) {
          const n = await this.expire(projectKey, now - days * DAY_MS);
          if (n > 0) report.expired[projectKey] = n;
        }
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [MAINTENANCE_LOCK]);
      }
    } finally {
      lock.release();
    }
    if (report.dropped.length > 0 || Object.keys(report.expired).length > 0)
      this.options.logger.info({ event: 'retention_applied', dropped: report.dropped, expired: report.expired });
    await this.refresh();
    return report;
  }

  /** Detaches (without blocking writers or readers) and drops one day's partitions, and their daily counts. */
  private async drop(range: Range): Promise<void> {
    const labelsPartition = range.name.replace(/^events/, 'event_labels');
    for (const [table, name] of [
      ['events', range.name],
      ['event_labels', labelsPartition],
    ] as const) {
      if (!(await exists(this.options.pool, name))) continue;
      // Not in a transaction: DETACH ... CONCURRENTLY waits out the readers instead of blocking them.
      const { rows } = await this.options.pool.query<{ pending: boolean }>(
        'SELECT inhdetachpending AS pending FROM pg_inherits WHERE inhrelid = $1::regclass',
        [name],
      );
      if (rows[0] !== undefined)
        await this.options.pool.query(`ALTER TABLE ${table} DETACH PARTITION ${name} ${rows[0].pending ? 'FINALIZE' : 'CONCURRENTLY'}`);
      await this.options.pool.query(`DROP TABLE ${name}`);
    }
    await this.options.pool.query('DELETE FROM project_daily_events WHERE day < $1::date', [isoDay(range.to)]);
  }

  /** Deletes one project's events older than `before` (and their label rows and counts), a batch per transaction. */
  private async expire(projectKey: string, before: number): Promise<number> {
    const batch = this.options.deleteBatchSize ?? 5000;
    let total = 0;
    for (;;) {
      const { rows } = await this.options.pool.query<{ deleted: number }>(
        `WITH doomed AS (
           SELECT occurred_at, id FROM events WHERE project_key = $1 AND occurred_at < $2 ORDER BY occurred_at LIMIT $3
         ), gone AS (
           DELETE FROM events e USING doomed d WHERE e.project_key = $1 AND e.occurred_at = d.occurred_at AND e.id = d.id
           RETURNING e.occurred_at, e.id, e.labels
         ), labels_gone AS (
           DELETE FROM event_labels l USING (SELECT g.occurred_at, g.id, unnest(g.labels) AS label FROM gone g) x
            WHERE l.project_key = $1 AND l.label = x.label AND l.occurred_at = x.occurred_at AND l.event_id = x.id
         ), counted AS (
           UPDATE project_daily_events c SET event_count = c.event_count - n.count
             FROM (SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count FROM gone GROUP BY 1) n
            WHERE c.project_key = $1 AND c.day = n.day
         )
         SELECT count(*)::int AS deleted FROM gone`,
        [projectKey, new Date(before).toISOString(), batch],
      );
      const deleted = rows[0]?.deleted ?? 0;
      total += deleted;
      if (deleted < batch) return total;
    }
  }

  /** Upkeep now and then every `intervalMs`; failures are logged and tried again next time. */
  start(intervalMs: number): Promise<unknown> {
    const run = () => {
      this.running = this.maintain().catch((error: unknown) => this.options.logger.warn({ event: 'partition_upkeep_failed', err: error }));
      return this.running;
    };
    this.timer = setInterval(() => void run(), intervalMs);
    this.timer.unref();
    return run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

async function exists(client: Pool | PoolClient, name: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return rows[0]!.found;
}
