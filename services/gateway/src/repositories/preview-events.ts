import type { Pool } from '@pulseboard/db';
import type { RuleEvent } from '@pulseboard/rules';

export interface PreviewScan {
  projectKey: string;
  since: Date;
  /** The rule filter's types and names, narrowed in SQL (an event of another type or name never matches it). */
  types?: readonly string[];
  names?: readonly string[];
  /** More events than this: the scan stops with 'too_many'. */
  maxEvents: number;
  /** Wall-clock budget of the whole scan, ms; also each statement's statement_timeout. */
  timeLimitMs: number;
}

export type ScanEnd = 'done' | 'too_many' | 'too_slow';

const BATCH = 5000;

/**
 * The project's stored events from `since` on, in timestamp order, handed to
 * `each` with the time the gateway received them, read through a cursor in
 * batches (never all held at once). The events table is the store's; the
 * gateway only reads it, as for GET /events.
 */
export async function scanPreviewEvents(pool: Pool, scan: PreviewScan, each: (event: RuleEvent, receivedMs: number) => void): Promise<ScanEnd> {
  const deadline = Date.now() + scan.timeLimitMs;
  const params: unknown[] = [scan.projectKey, scan.since];
  const where = ['project_key = $1', 'occurred_at >= $2'];
  if (scan.types !== undefined) where.push(`type = ANY($${params.push(scan.types)}::text[])`);
  if (scan.names !== undefined) where.push(`name = ANY($${params.push(scan.names)}::text[])`);
  const client = await pool.connect();
  let failed = true;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(scan.timeLimitMs))}`);
    // Times as epoch ms (a fraction past milliseconds cut off, as the engine reads a timestamp): no Date per row.
    await client.query(
      `DECLARE preview_events NO SCROLL CURSOR FOR
       SELECT id, type, name, floor(extract(epoch FROM occurred_at) * 1000)::float8 AS time, floor(extract(epoch FROM received_at) * 1000)::float8 AS received,
              severity, source, channel, labels, attributes
         FROM events WHERE ${where.join(' AND ')} ORDER BY occurred_at, id`,
      params,
    );
    let seen = 0;
    let end: ScanEnd = 'done';
    for (;;) {
      const { rows } = await client.query<EventRow>(`FETCH ${BATCH} FROM preview_events`);
      seen += rows.length;
      if (seen > scan.maxEvents) {
        end = 'too_many';
        break;
      }
      for (const row of rows) each(toRuleEvent(row), row.received);
      if (rows.length < BATCH) break;
      if (Date.now() > deadline) {
        end = 'too_slow';
        break;
      }
    }
    await client.query('COMMIT');
    failed = false;
    return end;
  } catch (error) {
    // statement_timeout: the database gave up on a batch within the same budget.
    if ((error as { code?: string }).code === '57014') return 'too_slow';
    throw error;
  } finally {
    if (failed) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

interface EventRow {
  id: number;
  type: string;
  name: string;
  time: number;
  received: number;
  severity: string | null;
  source: string | null;
  channel: string | null;
  labels: string[];
  attributes: Record<string, unknown>;
}

/** As `toRuleEvent` reads an ingested event: absent fields are undefined, not null. */
function toRuleEvent(row: EventRow): RuleEvent {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    time: row.time,
    severity: row.severity ?? undefined,
    source: row.source ?? undefined,
    channel: row.channel ?? undefined,
    labels: row.labels,
    attributes: row.attributes,
  };
}
