import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { eventTimeMs, type IngestedEvent } from '@pulseboard/contracts';
import { utcDay, utcMonth } from './utc-keys.ts';
import { prepared } from '@pulseboard/db';

/** Text-format COPY field: backslash, tab, newline and carriage return escaped; NULL is \N. */
function field(value: string | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value;
}

/** A text[] literal: every element quoted, with its quotes and backslashes escaped. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** Streams COPY text into the statement's table. */
export async function copy(tx: PoolClient, statement: string, text: string): Promise<void> {
  if (text === '') return;
  await pipeline(Readable.from([text]), tx.query(copyFrom(statement)));
}

/** The UTC days the events' own times fall on (their partitions). */
export function eventDays(events: readonly IngestedEvent[]): Set<string> {
  const days = new Set<string>();
  for (const e of events) days.add(utcDay(eventTimeMs(e.timestamp)));
  return days;
}

/** A batch as COPY text (events, label rows) and its counters. */
export interface RenderedBatch {
  events: string;
  labels: string;
  /** project NUL month (YYYY-MM-01) → events received. */
  monthly: Map<string, number>;
  /** project NUL day (YYYY-MM-DD) → events on that day of their own time. */
  daily: Map<string, number>;
}

export const EVENTS_COPY =
  'COPY events (id, project_key, type, name, occurred_at, received_at, severity, channel, correlation_id, source, labels, attributes, kafka_partition, kafka_offset) FROM STDIN';
export const LABELS_COPY = 'COPY event_labels (project_key, label, occurred_at, event_id) FROM STDIN';

/**
 * Where the events topic holds an event: the order the rule engine met it in
 * (a project's events share a partition; one message per event), which
 * replay reads the stored events in.
 */
export interface KafkaPosition {
  partition: number;
  offset: string;
}

/** The rows of a batch in COPY's text format, one label row per distinct label of an event; `positions[i]` is `events[i]`'s (absent: NULL). */
export function renderBatch(events: readonly IngestedEvent[], positions?: readonly KafkaPosition[]): RenderedBatch {
  let rows = '';
  let labels = '';
  const monthly = new Map<string, number>();
  const daily = new Map<string, number>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const eventLabels = e.labels ?? [];
    const at = positions?.[i];
    rows += `${e.id}\t${field(e.project_key)}\t${field(e.type)}\t${field(e.name)}\t${field(e.timestamp)}\t${field(e.received_at)}\t${field(e.severity)}\t${field(e.channel)}\t${field(e.correlation_id)}\t${field(e.source)}\t${field(textArray(eventLabels))}\t${field(JSON.stringify(e.attributes))}\t${at === undefined ? '\\N' : at.partition}\t${at === undefined ? '\\N' : at.offset}\n`;
    // An event may carry a label twice; its row is written once.
    for (const label of new Set(eventLabels)) labels += `${field(e.project_key)}\t${field(label)}\t${field(e.timestamp)}\t${e.id}\n`;
    // received_at is the gateway's toISOString(), which eventTimeMs reads digit by digit (no Date per event).
    const month = `${e.project_key}\u0000${utcMonth(eventTimeMs(e.received_at))}`;
    monthly.set(month, (monthly.get(month) ?? 0) + 1);
    const day = `${e.project_key}\u0000${utcDay(eventTimeMs(e.timestamp))}`;
    daily.set(day, (daily.get(day) ?? 0) + 1);
  }
  return { events: rows, labels, monthly, daily };
}

/**
 * Writes a batch inside the caller's transaction, the one that also moves the
 * consumer's offsets past it (kafka-kit's state-owning consumer), so a
 * redelivered batch is never written again: the events and their label rows
 * by COPY, then the per-project counters (monthly by receipt for quotas, daily
 * by the event's time for list totals). An event the topic holds twice (a
 * gateway that resent it after a timeout, with the same id and time) is
 * written once: within a batch by its id, across batches by the unique
 * (id, time) key, which makes the COPY fail; the batch is then written again
 * without the events already stored. The partitions of the events' days must
 * exist. Returns how many events were new.
 */
export async function writeEvents(tx: PoolClient, events: readonly IngestedEvent[], positions?: readonly KafkaPosition[]): Promise<number> {
  const seen = new Set<number>();
  // The first copy of an event keeps its place (the one the engine met first).
  const kept: number[] = [];
  events.forEach((e, i) => !seen.has(e.id) && seen.add(e.id) && kept.push(i));
  const unique = kept.length === events.length ? events : kept.map((i) => events[i]!);
  const uniquePositions = positions === undefined || kept.length === events.length ? positions : kept.map((i) => positions[i]!);
  if (unique.length === 0) return 0;
  // One round trip: the commit need not wait for the disk (a commit a crash loses takes its offsets
  // with it, same transaction, so the batch is read and written again), and the point to roll back
  // to if the topic held an event twice. The savepoint is not released: COMMIT releases it, and a
  // RELEASE would cost a round trip per batch (a shared transaction holds one per partition).
  await tx.query('SET LOCAL synchronous_commit TO off; SAVEPOINT store_batch');
  try {
    await writeRendered(tx, renderBatch(unique, uniquePositions));
    return unique.length;
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
    await tx.query('ROLLBACK TO SAVEPOINT store_batch');
  }
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id::text FROM events WHERE (id, occurred_at) IN (SELECT * FROM unnest($1::bigint[], $2::timestamptz[]))',
    [unique.map((e) => e.id), unique.map((e) => e.timestamp)],
  );
  const stored = new Set(rows.map((r) => r.id));
  const freshAt = unique.flatMap((e, i) => (stored.has(String(e.id)) ? [] : [i]));
  const fresh = freshAt.map((i) => unique[i]!);
  if (fresh.length > 0) await writeRendered(tx, renderBatch(fresh, uniquePositions === undefined ? undefined : freshAt.map((i) => uniquePositions[i]!)));
  return fresh.length;
}

async function writeRendered(tx: PoolClient, batch: RenderedBatch): Promise<void> {
  await copy(tx, EVENTS_COPY, batch.events);
  await copy(tx, LABELS_COPY, batch.labels);
  await addCounts(tx, batch.monthly, batch.daily);
}

/** Both counters in one statement (one round trip). */
const ADD_COUNTS = `WITH monthly AS (
    INSERT INTO project_monthly_usage AS c (project_key, month, event_count)
    SELECT * FROM unnest($1::text[], $2::date[], $3::bigint[])
    ON CONFLICT (project_key, month) DO UPDATE SET event_count = c.event_count + EXCLUDED.event_count)
  INSERT INTO project_daily_events AS c (project_key, day, event_count)
  SELECT * FROM unnest($4::text[], $5::date[], $6::bigint[])
  ON CONFLICT (project_key, day) DO UPDATE SET event_count = c.event_count + EXCLUDED.event_count`;

async function addCounts(tx: PoolClient, monthly: Map<string, number>, daily: Map<string, number>): Promise<void> {
  // In key order: two transactions never take the same rows' locks in opposite orders.
  const columns = (counts: Map<string, number>) => {
    const sorted = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const keys = sorted.map(([k]) => k.split('\u0000') as [string, string]);
    return [keys.map((k) => k[0]), keys.map((k) => k[1]), sorted.map(([, n]) => n)];
  };
  await tx.query(prepared(ADD_COUNTS, [...columns(monthly), ...columns(daily)]));
}
