import type { Pool, PoolClient } from 'pg';
import { CONTROL_CHANGE_SCHEMA_HEADER, HEADERS, type ControlChange, type ControlChangeKind } from '@pulseboard/contracts';
import { writeOutbox } from '@pulseboard/db';

export const CONTROL_OUTBOX_TABLE = 'control_outbox';
/** One relay stream for the whole outbox: any gateway may relay it (readers act on revisions, so a repeat is harmless). */
export const CONTROL_OUTBOX_PARTITION = 0;

/** Tells Redis (every gateway) a project's new revision; see auth/revision.ts. */
export type RevisionPublisher = (projectKey: string, revision: number) => Promise<void>;

/** Where control-plane writes announce themselves. */
export interface ControlFeed {
  /** The control topic (TOPIC_CONTROL). */
  topic: string;
  publishRevision: RevisionPublisher;
  /** After a write committed: its message leaves now rather than at the relay's next sweep. */
  committed(): void;
}

export interface ControlChangeOf {
  change: ControlChangeKind;
  tileId?: number;
}

/** Writes the message of a control-plane write to the outbox, in the write's transaction. */
export async function writeControlChange(tx: PoolClient, feed: ControlFeed, projectKey: string, revision: number, what: ControlChangeOf): Promise<void> {
  const value: ControlChange = { project_key: projectKey, revision, change: what.change, at: new Date().toISOString() };
  if (what.tileId !== undefined) value.tile_id = what.tileId;
  await writeOutbox(tx, CONTROL_OUTBOX_TABLE, CONTROL_OUTBOX_PARTITION, [
    {
      topic: feed.topic,
      key: projectKey,
      value: JSON.stringify(value),
      headers: { [HEADERS.contentType]: 'application/json', [HEADERS.schema]: CONTROL_CHANGE_SCHEMA_HEADER },
    },
  ]);
}

/**
 * Every control-plane write of a project (its key, limits, tiles, deletion)
 * goes through here: in one transaction the write, the project's revision + 1
 * and the write's message in the outbox (control topic). The new revision is
 * published to Redis before the commit, so from the moment the write has
 * answered every gateway sees its cached copy is stale on its next request,
 * re-reads the project and stamps the events it accepts with the new revision
 * (the rule engine evaluates them with rules at least that new). On failure
 * the revision Postgres still holds is published again.
 */
export async function controlWrite<T>(
  pool: Pool,
  feed: ControlFeed,
  projectKey: string,
  change: (result: T) => ControlChangeOf,
  work: (client: PoolClient) => Promise<T | undefined>,
  options: { touchProject?: boolean } = {},
): Promise<T | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    if (result === undefined) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const { rows } = await client.query<{ revision: string }>(
      `UPDATE projects SET revision = revision + 1${options.touchProject === true ? ', updated_at = now()' : ''} WHERE project_key = $1 RETURNING revision::text AS revision`,
      [projectKey],
    );
    const revision = Number(rows[0]!.revision);
    await writeControlChange(client, feed, projectKey, revision, change(result));
    await feed.publishRevision(projectKey, revision);
    await client.query('COMMIT');
    feed.committed();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const { rows } = await pool
      .query<{ revision: string }>('SELECT revision::text AS revision FROM projects WHERE project_key = $1', [projectKey])
      .catch(() => ({ rows: [] as { revision: string }[] }));
    if (rows[0] !== undefined) await feed.publishRevision(projectKey, Number(rows[0].revision)).catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
