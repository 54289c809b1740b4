import type { Pool, PoolClient } from 'pg';
import { TOPICS, type TileReplaced, type TileStatus, type TileValue } from '@pulseboard/contracts';
import { writeOutbox } from '@pulseboard/db';
import { RulePreview, type RuleEvent, type TileState, type TileStateChange } from '@pulseboard/rules';
import { openReplayEvents, storeNextOffset, type ReplayEventRow } from '@pulseboard/event-store';

/**
 * Applying a replay (POST /tiles/:id/replay, dry_run false) inside the
 * engine: the requests the gateway writes to tile_replays, the stored events
 * read in the order this engine met them, and the outcome written back.
 */

export interface ReplayRequest {
  id: number;
  tile_id: number;
  project_key: string;
  since: Date;
  revision: number;
}

/** The bounds a replay is held to (the preview's: docs/api.md, Replay). */
export const REPLAY_LIMITS = { maxEvents: 1_000_000, timeLimitMs: 10_000, storeWaitMs: 10_000 };

/** What the gateway reads back: the outcome, or why there is none (a 400 on `field`, else a 503). */
export type ReplayResult =
  | { ok: true; state: PublishedState; live: PublishedState; equal: boolean; events_replayed: number; changes_total: number; until: string }
  | { ok: false; field?: string; message: string };

export interface PublishedState {
  status: TileStatus;
  value: TileValue;
  version: number;
  last_event_id: number | null;
  changed_at: string | null;
}

/**
 * How long tile_replays keeps a row: finished ones (done, failed, cancelled)
 * an hour after they finished, long past the gateway's read of the outcome; a
 * request still pending five minutes after it was made was abandoned (its
 * gateway waits 30 s and then withdraws it; one that died first cannot) and
 * is never applied. The engine, the table's owner, deletes both
 * (`pruneReplays`, every `REPLAY_PRUNE_INTERVAL_MS`).
 */
export const REPLAY_RETENTION = { finishedKeptMs: 3_600_000, abandonedAfterMs: 300_000 } as const;
export const REPLAY_PRUNE_INTERVAL_MS = 60_000;

export async function pendingReplays(pool: Pool): Promise<ReplayRequest[]> {
  const { rows } = await pool.query<ReplayRequest>(
    "SELECT id::int, tile_id::int, project_key, since, revision::int FROM tile_replays WHERE status = 'pending' AND requested_at > now() - $1 * interval '1 millisecond' ORDER BY id LIMIT 20",
    [REPLAY_RETENTION.abandonedAfterMs],
  );
  return rows;
}

/**
 * Deletes the rows past `REPLAY_RETENTION`. A request an engine is taking
 * stays locked until that engine commits; its row is then no longer pending
 * and no longer old enough. Every engine instance may run it (the deletes
 * repeat nothing).
 */
export async function pruneReplays(pool: Pool): Promise<{ finished: number; abandoned: number }> {
  const finished = await pool.query("DELETE FROM tile_replays WHERE status <> 'pending' AND finished_at < now() - $1 * interval '1 millisecond'", [
    REPLAY_RETENTION.finishedKeptMs,
  ]);
  const abandoned = await pool.query("DELETE FROM tile_replays WHERE status = 'pending' AND requested_at < now() - $1 * interval '1 millisecond'", [
    REPLAY_RETENTION.abandonedAfterMs,
  ]);
  return { finished: finished.rowCount ?? 0, abandoned: abandoned.rowCount ?? 0 };
}

/** Takes a request in the claim's transaction (its row locked until that commits); false when it was cancelled or taken meanwhile. */
export async function takeReplay(tx: PoolClient, id: number): Promise<boolean> {
  const { rowCount } = await tx.query("SELECT 1 FROM tile_replays WHERE id = $1 AND status = 'pending' FOR UPDATE", [id]);
  return rowCount === 1;
}

export async function finishReplay(tx: PoolClient, id: number, result: ReplayResult): Promise<void> {
  await tx.query('UPDATE tile_replays SET status = $2, result = $3, finished_at = now() WHERE id = $1', [
    id,
    result.ok ? 'done' : 'failed',
    JSON.stringify(result),
  ]);
}

/**
 * The next offset this engine will apply on the partition (what its
 * transactions committed: the claim's transaction runs between batches), then
 * waits until the store has stored every event before it: the store and the
 * engine are separate consumers of the same partition. False when the store
 * stays behind for `storeWaitMs`.
 */
export async function waitForStore(
  tx: PoolClient,
  key: { engineGroupId: string; storeGroupId: string; topic: string; partition: number },
): Promise<{ applied: number } | undefined> {
  const engine = await tx.query<{ next: string }>(
    'SELECT next_offset::text AS next FROM rule_engine_offsets WHERE group_id = $1 AND topic = $2 AND partition = $3',
    [key.engineGroupId, key.topic, key.partition],
  );
  const applied = Number(engine.rows[0]?.next ?? -1);
  if (applied < 0) return { applied: 0 };
  const deadline = Date.now() + REPLAY_LIMITS.storeWaitMs;
  for (;;) {
    // Read committed: each statement sees what the store committed meanwhile.
    if ((await storeNextOffset(tx, { groupId: key.storeGroupId, topic: key.topic, partition: key.partition })) >= applied) return { applied };
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const BATCH = 5000;

/**
 * The tile's rule over the project's stored events received from `since` on,
 * of this partition up to `applied` (what this engine had applied), in the
 * order it met them, each at the time the gateway received it; time-driven
 * changes at their due times up to `now`. Through a cursor in the claim's
 * transaction, within the replay's bounds.
 */
export async function replayStored(
  tx: PoolClient,
  preview: RulePreview,
  scan: { projectKey: string; since: Date; partition: number; applied: number; now: number },
): Promise<'done' | 'too_many' | 'too_slow'> {
  const deadline = Date.now() + REPLAY_LIMITS.timeLimitMs;
  const cursor = await openReplayEvents(tx, { projectKey: scan.projectKey, since: scan.since, partition: scan.partition, before: scan.applied });
  let seen = 0;
  let end: 'done' | 'too_many' | 'too_slow' = 'done';
  for (;;) {
    const rows = await cursor.fetch(BATCH);
    seen += rows.length;
    if (seen > REPLAY_LIMITS.maxEvents) {
      end = 'too_many';
      break;
    }
    for (const row of rows) preview.push(toRuleEvent(row), Math.floor(row.received));
    if (rows.length < BATCH) break;
    if (Date.now() > deadline) {
      end = 'too_slow';
      break;
    }
  }
  await cursor.close();
  preview.finish(scan.now);
  return end;
}

function toRuleEvent(row: ReplayEventRow): RuleEvent {
  return {
    id: Number(row.id),
    type: row.type,
    name: row.name,
    time: Math.floor(row.time),
    severity: row.severity ?? undefined,
    source: row.source ?? undefined,
    channel: row.channel ?? undefined,
    labels: row.labels,
    attributes: row.attributes,
  };
}

/**
 * In the replay's transaction: a tile-replacements message through the
 * engine's outbox (with the partition's other messages, relayed once the
 * transaction committed), so broadcast tells the tile's subscribers to read
 * its history again from `since`.
 */
export async function announceReplaced(
  tx: PoolClient,
  topics: { outboxTable: string; tileReplacements: string },
  partition: number,
  replaced: TileReplaced,
): Promise<void> {
  await writeOutbox(tx, topics.outboxTable, partition, [{ topic: topics.tileReplacements, ...TOPICS.tileReplacements.encode(replaced) }]);
}

/** The tile's history from `since` on goes: the replay's takes its place. */
export async function deleteHistorySince(tx: PoolClient, tileId: number, since: Date): Promise<number> {
  const { rowCount } = await tx.query('DELETE FROM tile_state_history WHERE tile_id = $1 AND changed_at >= $2', [tileId, since]);
  return rowCount ?? 0;
}

export const published = (state: TileState): PublishedState => ({
  status: state.status,
  value: state.value,
  version: state.version,
  last_event_id: state.last_event_id,
  changed_at: state.changed_at === null ? null : new Date(state.changed_at).toISOString(),
});

/** The replay's changes numbered on from the live version `base`, so every reader that orders by version takes them as newer. */
export const renumbered = (changes: readonly TileStateChange[], base: number): TileStateChange[] => changes.map((c, i) => ({ ...c, version: base + i + 1 }));
