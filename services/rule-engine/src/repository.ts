import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { PROJECT_REVISION_HEADER, TOPICS, withTraceparent, type TileStatus, type TileValue } from '@pulseboard/contracts';
import { claimLogStream, logSource, prepared, type LogEntry, type LogRelaySource, type LogStreamKey, type OfferedEntry } from '@pulseboard/db';
import type { EvaluationState, TileState, TileStateChange } from '@pulseboard/rules';

/** Every SQL statement of the engine on its own tables: tile_states, tile_state_history, its relay cursors and its outbox. Tiles are read through @pulseboard/control-plane. */

export interface StoredState extends TileState {
  fingerprint: string;
}

interface StateRow {
  tile_id: number;
  status: TileStatus;
  value: TileValue;
  version: number;
  last_event_id: number | null;
  changed_at: Date | null;
  evaluation: EvaluationState;
  rule_fingerprint: string;
}

export async function loadStates(tx: PoolClient, projectKey: string): Promise<Map<number, StoredState>> {
  const { rows } = await tx.query<StateRow>(
    prepared('SELECT tile_id, status, value, version, last_event_id, changed_at, evaluation, rule_fingerprint FROM tile_states WHERE project_key = $1', [
      projectKey,
    ]),
  );
  return new Map(
    rows.map((r) => [
      r.tile_id,
      {
        status: r.status,
        value: r.value,
        version: r.version,
        last_event_id: r.last_event_id,
        changed_at: r.changed_at?.getTime() ?? null,
        evaluation: r.evaluation,
        fingerprint: r.rule_fingerprint,
      },
    ]),
  );
}

export interface StateWrite {
  tileId: number;
  projectKey: string;
  state: StoredState;
  wakeAt: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function writeStates(tx: PoolClient, writes: readonly StateWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await tx.query(
    prepared(
      `INSERT INTO tile_states AS s (tile_id, project_key, status, value, version, last_event_id, changed_at, evaluation, rule_fingerprint, wake_at, updated_at)
     SELECT * , now() FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::bigint[], $6::bigint[], $7::timestamptz[], $8::jsonb[], $9::text[], $10::timestamptz[])
     ON CONFLICT (tile_id) DO UPDATE SET project_key = excluded.project_key, status = excluded.status, value = excluded.value, version = excluded.version,
       last_event_id = excluded.last_event_id, changed_at = excluded.changed_at, evaluation = excluded.evaluation,
       rule_fingerprint = excluded.rule_fingerprint, wake_at = excluded.wake_at, updated_at = now()`,
      [
        writes.map((w) => w.tileId),
        writes.map((w) => w.projectKey),
        writes.map((w) => w.state.status),
        writes.map((w) => JSON.stringify(w.state.value)),
        writes.map((w) => w.state.version),
        writes.map((w) => w.state.last_event_id),
        writes.map((w) => iso(w.state.changed_at)),
        writes.map((w) => JSON.stringify(w.state.evaluation)),
        writes.map((w) => w.state.fingerprint),
        writes.map((w) => iso(w.wakeAt)),
      ],
    ),
  );
}

export async function deleteStates(tx: PoolClient, tileIds: readonly number[]): Promise<void> {
  if (tileIds.length > 0) await tx.query('DELETE FROM tile_states WHERE tile_id = ANY($1::bigint[])', [tileIds]);
}

export interface HistoryWrite {
  tileId: number;
  projectKey: string;
  tileName: string;
  change: TileStateChange;
  /** The project revision of the rules the change was evaluated with (at least). */
  rulesRevision: number;
}

/** A history row as written: its partition's relay stream, and the trace of the batch that made it. */
export interface HistoryRow extends HistoryWrite {
  relayStream: number;
  traceparent: string | null;
}

/**
 * Appends changes to the history, in the order given, in one statement:
 * positions are drawn from the sequence first and the smallest goes to the
 * first change (matched by number, so nothing depends on the order in which
 * the rows are produced). One session draws them in increasing order, so a
 * partition's positions grow with its transactions. A row of no relay stream
 * (null: a replayed change, replay.ts) is never sent.
 */
export async function insertHistory(tx: PoolClient, writes: readonly (Omit<HistoryRow, 'relayStream'> & { relayStream: number | null })[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const { rows } = await tx.query<{ id: number }>(
    prepared(
      `WITH drawn AS (SELECT nextval('tile_state_history_id_seq') AS id FROM generate_series(1, cardinality($1::bigint[]))),
          numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM drawn)
     INSERT INTO tile_state_history (relay_stream, id, tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause, rules_revision, traceparent, group_key)
     SELECT u.relay_stream, numbered.id, u.tile_id, u.project_key, u.tile_name, u.status, u.previous_status, u.value, u.previous_value, u.version, u.event_id, u.changed_at, u.cause, u.rules_revision, u.traceparent, u.group_key
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8::bigint[], $9::bigint[], $10::timestamptz[], $11::text[], $12::int[], $13::bigint[], $14::text[], $15::text[])
              WITH ORDINALITY AS u(tile_id, project_key, tile_name, status, previous_status, value, previous_value, version, event_id, changed_at, cause, relay_stream, rules_revision, traceparent, group_key, n)
       JOIN numbered USING (n)
     RETURNING id`,
      [
        writes.map((w) => w.tileId),
        writes.map((w) => w.projectKey),
        writes.map((w) => w.tileName),
        writes.map((w) => w.change.status),
        writes.map((w) => w.change.previous_status),
        writes.map((w) => JSON.stringify(w.change.value)),
        writes.map((w) => JSON.stringify(w.change.previous_value)),
        writes.map((w) => w.change.version),
        writes.map((w) => w.change.event_id),
        writes.map((w) => iso(w.change.changed_at)),
        writes.map((w) => w.change.cause),
        writes.map((w) => w.relayStream),
        writes.map((w) => w.rulesRevision),
        writes.map((w) => w.traceparent),
        writes.map((w) => w.change.group ?? ''),
      ],
    ),
  );
  // The nth write took the nth smallest id.
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** A history row as committed, with its position (id). */
export interface CommittedHistoryRow extends HistoryRow {
  position: number;
}

/**
 * The tile-change message a history row stands for, built the same way from
 * a row read back and from one the engine just committed (`committedEntries`),
 * so the relay sends the same bytes either way.
 */
function tileChangeEntry(row: CommittedHistoryRow, tileChangesTopic: string): LogEntry {
  const { change } = row;
  const encoded = withTraceparent(
    TOPICS.tileChanges.encode({
      position: row.position,
      tile_id: row.tileId,
      project_key: row.projectKey,
      tile_name: row.tileName,
      status: change.status,
      previous_status: change.previous_status,
      value: change.value,
      previous_value: change.previous_value,
      version: change.version,
      event_id: change.event_id,
      changed_at: new Date(change.changed_at).toISOString(),
      cause: change.cause,
      ...(change.group === undefined ? {} : { group: change.group }),
    }),
    row.traceparent ?? undefined,
  );
  return {
    stream: row.relayStream,
    position: row.position,
    message: { topic: tileChangesTopic, ...encoded, headers: { ...encoded.headers, [PROJECT_REVISION_HEADER]: String(row.rulesRevision) } },
  };
}

/** What a commit wrote to the history, offered to the relay (`LogRelaySource.offer`): each message is built only if the relay sends it from memory. */
export function committedEntries(rows: readonly CommittedHistoryRow[], tileChangesTopic: string): OfferedEntry[] {
  return rows.map((row) => ({ stream: row.relayStream, position: row.position, message: () => tileChangeEntry(row, tileChangesTopic).message }));
}

const RELAY_CURSORS_TABLE = 'rule_engine_relay_cursors';

/** In the claiming transaction: the partition's history relay stream; a new one starts after the whole history (older rows went through the outbox). */
export async function claimHistoryStream(tx: PoolClient, key: LogStreamKey): Promise<number> {
  const { rows } = await tx.query<{ max: number | null }>('SELECT max(id) AS max FROM tile_state_history');
  return claimLogStream(tx, RELAY_CURSORS_TABLE, key, rows[0]?.max ?? 0);
}

/**
 * The history as the source of the tile-changes topic: each row after its
 * stream's cursor becomes that change's message. Once a stream is read to its
 * end, what the engine commits comes from memory (`offer`), not read back;
 * the cursors are written at most every `markIntervalMs`.
 */
export function historySource(
  pool: Pool,
  stream: { groupId: string; eventsTopic: string; tileChangesTopic: string; markIntervalMs?: number; logger?: Logger },
): LogRelaySource {
  return logSource({
    pool,
    cursorsTable: RELAY_CURSORS_TABLE,
    groupId: stream.groupId,
    topic: stream.eventsTopic,
    offers: true, // the engine offers what each commit appended (service.ts)
    ...(stream.markIntervalMs !== undefined ? { markIntervalMs: stream.markIntervalMs } : {}),
    ...(stream.logger !== undefined ? { logger: stream.logger } : {}),
    async read(after, limit) {
      const { rows } = await pool.query<HistoryReadRow>(
        prepared(
          `SELECT h.relay_stream, h.rules_revision, h.id AS position, h.tile_id, h.project_key, h.tile_name, h.status, h.previous_status, h.value, h.previous_value, h.version, h.event_id, h.changed_at, h.cause, h.traceparent, h.group_key
           FROM unnest($1::int[], $2::bigint[]) AS c(stream, after)
           CROSS JOIN LATERAL (SELECT * FROM tile_state_history h WHERE h.relay_stream = c.stream AND h.id > c.after ORDER BY h.id LIMIT $3) h
          ORDER BY h.id LIMIT $3`,
          [after.map((a) => a.stream), after.map((a) => a.position), limit],
        ),
      );
      return rows.map((r) =>
        tileChangeEntry(
          {
            relayStream: r.relay_stream,
            position: r.position,
            tileId: r.tile_id,
            projectKey: r.project_key,
            tileName: r.tile_name,
            rulesRevision: r.rules_revision,
            traceparent: r.traceparent,
            change: {
              status: r.status,
              previous_status: r.previous_status,
              value: r.value,
              previous_value: r.previous_value,
              version: r.version,
              event_id: r.event_id,
              changed_at: r.changed_at.getTime(),
              cause: r.cause,
              ...(r.group_key === '' ? {} : { group: r.group_key }),
            },
          },
          stream.tileChangesTopic,
        ),
      );
    },
  });
}

/** A history row as the relay reads it: the change's own fields, and what places it. */
interface HistoryReadRow extends Omit<TileStateChange, 'changed_at' | 'group'> {
  relay_stream: number;
  rules_revision: number;
  position: number;
  tile_id: number;
  project_key: string;
  tile_name: string;
  changed_at: Date;
  traceparent: string | null;
  /** '' for a change of the tile itself. */
  group_key: string;
}

/** Tiles that need time-driven evaluation at some point, for re-arming the timers of claimed partitions. */
export async function wakingTiles(tx: PoolClient): Promise<{ tile_id: number; project_key: string; wake_at: Date }[]> {
  const { rows } = await tx.query<{ tile_id: number; project_key: string; wake_at: Date }>(
    'SELECT tile_id, project_key, wake_at FROM tile_states WHERE wake_at IS NOT NULL',
  );
  return rows;
}
