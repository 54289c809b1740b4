/**
 * bench:rules' like-for-like baseline: a plain kafkajs consumer of the same
 * backlog that writes what the engine wrote, with no evaluation: per batch
 * (per partition, as many partitions at once as the engine), one transaction
 * with the partition's offsets row, one state row per tile the batch touched
 * (the engine's final state of that tile, so the rows are the same size) and
 * one history row per event that made a change in the engine's run, through
 * the engine's own statements (services/rule-engine/src/repository.ts). Into
 * a database of the same schema of its own, so the engine's tables are not touched.
 */
import { execFileSync } from 'node:child_process';
import type { testKafka } from '@pulseboard/test-kit';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import { insertHistory, writeStates, type HistoryWrite, type StateWrite, type StoredState } from '../../services/rule-engine/src/repository.ts';

interface EngineTile {
  id: number;
  name: string;
  state: StoredState;
}

/** What the engine wrote, read from its database after its drain: each tile's final state, and which events made a change. */
async function engineOutput(engineDb: pg.Pool): Promise<{ tiles: Map<string, EngineTile>; changed: Set<number> }> {
  const { rows } = await engineDb.query<{
    id: string;
    project_key: string;
    position: number;
    name: string;
    status: StoredState['status'];
    value: StoredState['value'];
    version: string;
    evaluation: StoredState['evaluation'];
    rule_fingerprint: string;
  }>(
    `SELECT t.id, t.project_key, t.position, t.name, s.status, s.value, s.version, s.evaluation, s.rule_fingerprint FROM tiles t JOIN tile_states s ON s.tile_id = t.id`,
  );
  const tiles = new Map<string, EngineTile>();
  for (const r of rows) {
    tiles.set(`${r.project_key}|${r.position}`, {
      id: Number(r.id),
      name: r.name,
      state: {
        status: r.status,
        value: r.value,
        version: Number(r.version),
        last_event_id: null,
        changed_at: Date.now(),
        evaluation: r.evaluation,
        fingerprint: r.rule_fingerprint,
      },
    });
  }
  const changed = new Set(
    (await engineDb.query<{ event_id: string }>(`SELECT event_id FROM tile_state_history WHERE event_id IS NOT NULL`)).rows.map((r) => Number(r.event_id)),
  );
  return { tiles, changed };
}

const KINDS = ['metric', 'error', 'deployment', 'uptime'];

/** The tile position an event of bench/rules/main.ts's backlog is for (tile 4k + kind watches thing k). */
function positionOf(e: { type: string; name: string; source?: string }): number {
  const kind = KINDS.indexOf(e.type);
  const thing = kind === 0 || kind === 3 ? e.name : (e.source ?? '');
  return 4 * Number(/\d+$/.exec(thing)?.[0] ?? 0) + kind;
}

/** Drains `events` messages of `topic`; events/s from the consumer's start (connect and group join included, as the engine's). */
export async function stateWritingBaseline(options: {
  kafka: ReturnType<typeof testKafka>;
  topic: string;
  events: number;
  databaseUrl: string;
  engineDb: pg.Pool;
  partitionsConcurrently: number;
  root: string;
}): Promise<{ rate: number; workingRate: number; stateRows: number; historyRows: number }> {
  const { tiles, changed } = await engineOutput(options.engineDb);
  execFileSync('psql', [
    options.databaseUrl.replace(/\/[^/]*$/, '/postgres'),
    '-qc',
    `DROP DATABASE IF EXISTS ${new URL(options.databaseUrl).pathname.slice(1)} WITH (FORCE)`,
  ]);
  await migrateAll(options.databaseUrl, options.root);
  const db = new pg.Pool({ connectionString: options.databaseUrl, max: options.partitionsConcurrently });
  const groupId = `bench-rules-baseline-${Date.now()}`;
  const consumer = options.kafka.consumer({ groupId, maxBytesPerPartition: 4 * 1024 * 1024 });
  let consumed = 0;
  let stateRows = 0;
  let historyRows = 0;
  let firstCommit: { at: number; consumed: number } | undefined;
  const started = performance.now();
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    void consumer
      .run({
        partitionsConsumedConcurrently: options.partitionsConcurrently,
        eachBatch: async ({ batch }) => {
          const states = new Map<number, StateWrite>();
          const history: HistoryWrite[] = [];
          for (const m of batch.messages) {
            const e = JSON.parse(m.value!.toString()) as { id: number; project_key: string; type: string; name: string; source?: string };
            const tile = tiles.get(`${e.project_key}|${positionOf(e)}`);
            if (tile === undefined) continue;
            const state = { ...tile.state, last_event_id: e.id };
            states.set(tile.id, { tileId: tile.id, projectKey: e.project_key, state, wakeAt: null });
            if (changed.has(e.id)) {
              const change = {
                cause: 'event' as const,
                status: state.status,
                previous_status: state.status,
                value: state.value,
                previous_value: state.value,
                version: state.version,
                event_id: e.id,
                changed_at: state.changed_at ?? Date.now(),
              };
              history.push({ tileId: tile.id, projectKey: e.project_key, tileName: tile.name, change, rulesRevision: 1 });
            }
          }
          const tx = await db.connect();
          try {
            await tx.query('BEGIN');
            await tx.query(
              `INSERT INTO rule_engine_offsets (group_id, topic, partition, next_offset, epoch, updated_at) VALUES ($1, $2, $3, $4, 1, now())
               ON CONFLICT (group_id, topic, partition) DO UPDATE SET next_offset = excluded.next_offset, updated_at = now()`,
              [groupId, batch.topic, batch.partition, (BigInt(batch.lastOffset()) + 1n).toString()],
            );
            await writeStates(tx, [...states.values()]);
            await insertHistory(
              tx,
              history.map((h) => ({ ...h, relayStream: 1, traceparent: null })),
            );
            await tx.query('COMMIT');
          } finally {
            tx.release();
          }
          stateRows += states.size;
          historyRows += history.length;
          consumed += batch.messages.length;
          firstCommit ??= { at: performance.now(), consumed };
          if (consumed >= options.events) resolve();
        },
      })
      .catch(reject);
  });
  const ended = performance.now();
  const rate = options.events / ((ended - started) / 1000);
  const workingRate = (options.events - firstCommit!.consumed) / ((ended - firstCommit!.at) / 1000);
  await consumer.disconnect();
  await db.end();
  return { rate, workingRate, stateRows, historyRows };
}
