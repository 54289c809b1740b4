import { inTransaction, type Pool } from '@pulseboard/db';
import type { RuleEvent, RuleReads } from '@pulseboard/rules';

export interface PreviewScan {
  projectKey: string;
  since: Date;
  /** The rule filter's types and names, narrowed in SQL (an event of another type or name never matches it). */
  types?: readonly string[];
  names?: readonly string[];
  /** What the rule reads of an event (`ruleReads`): no other column or attribute is fetched. */
  reads: RuleReads;
  /** More events than this: the scan stops with 'too_many'. */
  maxEvents: number;
  /** Wall-clock budget of the whole scan, ms; also each statement's statement_timeout. */
  timeLimitMs: number;
  /**
   * 'time' (preview): events of time `since` on, in time order. 'engine' (replay): events received
   * from `since` on, in the order the rule engine met them: their position in the events topic
   * (a project's events share a partition, one message per event); events stored before positions
   * were kept come first, by receipt.
   */
  order?: 'time' | 'engine';
}

export type ScanEnd = 'done' | 'too_many' | 'too_slow';

const BATCH = 5000;

/**
 * The project's stored events from `since` on, in timestamp order, handed to
 * `each` with the time the gateway received them, read through a cursor in
 * batches (never all held at once): the gateway's preview and dry-run replay.
 */
export async function scanPreviewEvents(pool: Pool, scan: PreviewScan, each: (event: RuleEvent, receivedMs: number) => void): Promise<ScanEnd> {
  const deadline = Date.now() + scan.timeLimitMs;
  const query = previewEventsQuery(scan);
  try {
    return await inTransaction(
      pool,
      async (client): Promise<ScanEnd> => {
        await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(scan.timeLimitMs))}`);
        await client.query(`DECLARE preview_events NO SCROLL CURSOR FOR ${query.text}`, query.values);
        let seen = 0;
        for (;;) {
          const { rows } = await client.query<EventRow>(`FETCH ${BATCH} FROM preview_events`);
          seen += rows.length;
          if (seen > scan.maxEvents) return 'too_many';
          for (const row of rows) each(toRuleEvent(row, scan.reads), Math.floor(row.received));
          if (rows.length < BATCH) return 'done';
          if (Date.now() > deadline) return 'too_slow';
        }
      },
      { readOnly: true },
    );
  } catch (error) {
    // statement_timeout: the database gave up on a batch within the same budget.
    if ((error as { code?: string }).code === '57014') return 'too_slow';
    throw error;
  }
}

/**
 * The scan's statement. The 'engine' order reads by receipt: the store's
 * events_project_received_idx (project, received_at) bounds it in every
 * partition (the table is partitioned by the events' own time, which says
 * nothing of when they were received).
 */
export function previewEventsQuery(scan: Pick<PreviewScan, 'projectKey' | 'since' | 'types' | 'names' | 'reads' | 'order'>): {
  text: string;
  values: unknown[];
} {
  const values: unknown[] = [scan.projectKey, scan.since];
  const engineOrder = scan.order === 'engine';
  const where = ['project_key = $1', engineOrder ? 'received_at >= $2' : 'occurred_at >= $2'];
  const orderBy = engineOrder ? 'kafka_partition NULLS FIRST, kafka_offset, received_at, id' : 'occurred_at, id';
  if (scan.types !== undefined) where.push(`type = ANY($${values.push(scan.types)}::text[])`);
  if (scan.names !== undefined) where.push(`name = ANY($${values.push(scan.names)}::text[])`);
  return { text: `SELECT ${columns(scan.reads, values).join(', ')} FROM events WHERE ${where.join(' AND ')} ORDER BY ${orderBy}`, values };
}

/**
 * Only what the rule reads (reading and parsing every row's attributes and
 * labels was most of a preview's time): times as epoch ms, no Date per row;
 * each attribute the rule names as its own JSON text, so an absent key
 * (SQL NULL) stays apart from a JSON null ('null').
 */
function columns(reads: RuleReads, params: unknown[]): string[] {
  const list = [
    'id',
    'type',
    'name',
    '(extract(epoch FROM occurred_at) * 1000)::float8 AS time',
    '(extract(epoch FROM received_at) * 1000)::float8 AS received',
  ];
  for (const field of ['severity', 'source', 'channel', 'labels'] as const) if (reads[field]) list.push(field);
  reads.attributeKeys.forEach((key, i) => list.push(`(attributes -> $${params.push(key)}::text)::text AS a${i}`));
  return list;
}

interface EventRow {
  [attribute: `a${number}`]: string | null;
  id: number;
  type: string;
  name: string;
  time: number;
  received: number;
  severity?: string | null;
  source?: string | null;
  channel?: string | null;
  labels?: string[];
}

/** As `toRuleEvent` reads an ingested event (absent fields undefined, not null), narrowed to `reads` (`narrowEvent`). */
function toRuleEvent(row: EventRow, reads: RuleReads): RuleEvent {
  const attributes: Record<string, unknown> = {};
  reads.attributeKeys.forEach((key, i) => {
    const json = row[`a${i}`];
    if (json !== null && json !== undefined) attributes[key] = JSON.parse(json);
  });
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    // A fraction past milliseconds cut off, as the engine reads a timestamp.
    time: Math.floor(row.time),
    severity: row.severity ?? undefined,
    source: row.source ?? undefined,
    channel: row.channel ?? undefined,
    labels: row.labels ?? [],
    attributes,
  };
}
