import type pg from 'pg';

/** One index of events, as pg_indexes shows it: its name, whether unique, and what follows `ON events`. */
export interface IndexDef {
  name: string;
  unique: boolean;
  /** e.g. `USING btree (project_key, occurred_at DESC, id DESC) WHERE (severity IS NOT NULL)` */
  body: string;
}

export interface IndexSet {
  name: string;
  indexes: IndexDef[];
}

const btree = (name: string, columns: string, where?: string, unique = false): IndexDef => ({
  name,
  unique,
  body: `USING btree (${columns})${where === undefined ? '' : ` WHERE (${where} IS NOT NULL)`}`,
});

/** The previous events index set, the eight of migration 1764892800000_partitioned-events: the "old" set. */
export const OLD_SET: IndexSet = {
  name: 'old (8 indexes)',
  indexes: [
    btree('events_id_idx', 'id, occurred_at', undefined, true),
    btree('events_project_time_idx', 'project_key, occurred_at DESC, id DESC'),
    btree('events_project_type_time_idx', 'project_key, type, occurred_at DESC, id DESC'),
    btree('events_project_name_time_idx', 'project_key, name, occurred_at DESC, id DESC'),
    btree('events_project_severity_time_idx', 'project_key, severity, occurred_at DESC, id DESC', 'severity'),
    btree('events_project_source_time_idx', 'project_key, source, occurred_at DESC, id DESC', 'source'),
    btree('events_project_channel_time_idx', 'project_key, channel, occurred_at DESC, id DESC', 'channel'),
    btree('events_project_correlation_time_idx', 'project_key, correlation_id, occurred_at DESC, id DESC', 'correlation_id'),
  ],
};

/** The indexes the migrations give events now: the "new" set. */
export async function migratedSet(client: pg.ClientBase): Promise<IndexSet> {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'events' ORDER BY indexname",
  );
  const indexes = rows.map(({ indexname, indexdef }) => {
    const m = /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?\S+ (.*)$/.exec(indexdef);
    if (m === null) throw new Error(`unexpected index definition: ${indexdef}`);
    return { name: indexname, unique: m[1] !== undefined, body: m[2]! };
  });
  return { name: `new (${indexes.length} indexes)`, indexes };
}

const sameIndex = (a: IndexDef, b: IndexDef) => a.unique === b.unique && a.body === b.body;
export const sameSet = (a: IndexSet, b: IndexSet) => a.indexes.length === b.indexes.length && a.indexes.every((x) => b.indexes.some((y) => sameIndex(x, y)));

/**
 * Makes events carry exactly `set`'s indexes inside the caller's transaction
 * (to be rolled back): those it lacks are dropped (a catalog change), those
 * missing are built, on `partition` only when given (a write measured there
 * needs no more) or else on the whole table.
 */
export async function applySet(tx: pg.ClientBase, current: IndexSet, set: IndexSet, partition?: string): Promise<void> {
  for (const index of current.indexes) if (!set.indexes.some((x) => sameIndex(x, index))) await tx.query(`DROP INDEX ${tx.escapeIdentifier(index.name)}`);
  for (const index of set.indexes) {
    if (current.indexes.some((x) => sameIndex(x, index))) continue;
    const table = partition === undefined ? 'events' : tx.escapeIdentifier(partition);
    await tx.query(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ON ${table} ${index.body}`);
  }
}

/** `set` without one of its indexes. */
export const without = (set: IndexSet, name: string): IndexSet => ({
  name: `without ${name}`,
  indexes: set.indexes.filter((x) => x.name !== name),
});
