import type { Pool, PoolClient } from 'pg';
import { CONTROL_CHANGE_SCHEMA_HEADER, HEADERS, type ControlChange, type ControlChangeKind } from '@pulseboard/contracts';
import { inTransaction, writeOutbox } from '@pulseboard/db';

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

/** One project's part of a control-plane write. */
export interface ProjectControlChange {
  projectKey: string;
  /** Its messages on the control topic, in this order, at the project's new revision. */
  changes: readonly ControlChangeOf[];
  /** The write changed the project row itself: its `updated_at` moves too. */
  touchProject?: boolean;
  /** The write created the project, at this revision: announced at it, neither bumped nor published (no gateway holds the project yet). */
  createdRevision?: number;
}

/** What a control-plane write did: its answer, and each project it changed. */
export interface ControlWriteDone<T> {
  result: T;
  projects: readonly ProjectControlChange[];
}

/**
 * Every control-plane write (projects, their keys, limits, integration
 * secrets, tiles, and notification services taken off tiles) goes through
 * here: in one transaction the write, each changed project's revision + 1
 * and the write's messages in the outbox (control topic). A new revision is
 * published to Redis before the commit, so from the moment the write has
 * answered every gateway sees its cached copy is stale on its next request,
 * re-reads the project and stamps the events it accepts with the new revision
 * (the rule engine evaluates them with rules at least that new). On failure
 * the revisions Postgres still holds are published again. `work` returning
 * undefined (nothing to change) rolls back and answers undefined.
 */
export async function controlWrites<T>(
  pool: Pool,
  feed: ControlFeed,
  work: (client: PoolClient) => Promise<ControlWriteDone<T> | undefined>,
): Promise<T | undefined> {
  const announced: string[] = [];
  try {
    const done = await inTransaction(
      pool,
      async (client) => {
        const written = await work(client);
        // In key order: two writes that change the same projects lock their rows in the same order.
        for (const project of [...(written?.projects ?? [])].sort((a, b) => (a.projectKey < b.projectKey ? -1 : 1))) {
          announced.push(project.projectKey);
          await announce(client, feed, project);
        }
        return written;
      },
      { commitIf: (written) => written !== undefined },
    );
    if (done === undefined) return undefined;
    if (done.projects.length > 0) feed.committed();
    return done.result;
  } catch (error) {
    await republishRevisions(pool, feed, announced);
    throw error;
  }
}

/** A control-plane write of one project (see `controlWrites`): `change` names what it announces. */
export function controlWrite<T>(
  pool: Pool,
  feed: ControlFeed,
  projectKey: string,
  change: (result: T) => ControlChangeOf,
  work: (client: PoolClient) => Promise<T | undefined>,
  options: { touchProject?: boolean } = {},
): Promise<T | undefined> {
  return controlWrites(pool, feed, async (client) => {
    const result = await work(client);
    return result === undefined ? undefined : { result, projects: [{ projectKey, changes: [change(result)], touchProject: options.touchProject === true }] };
  });
}

/** The project's new revision (or the one it was created at) and its messages in the outbox, in the write's transaction. */
async function announce(tx: PoolClient, feed: ControlFeed, project: ProjectControlChange): Promise<void> {
  if (project.createdRevision !== undefined) {
    await writeControlChanges(tx, feed, project.projectKey, project.createdRevision, project.changes);
    return;
  }
  const { rows } = await tx.query<{ revision: string }>(
    `UPDATE projects SET revision = revision + 1${project.touchProject === true ? ', updated_at = now()' : ''} WHERE project_key = $1 RETURNING revision::text AS revision`,
    [project.projectKey],
  );
  const revision = Number(rows[0]!.revision);
  await writeControlChanges(tx, feed, project.projectKey, revision, project.changes);
  await feed.publishRevision(project.projectKey, revision);
}

function writeControlChanges(tx: PoolClient, feed: ControlFeed, projectKey: string, revision: number, changes: readonly ControlChangeOf[]): Promise<void> {
  const headers = { [HEADERS.contentType]: 'application/json', [HEADERS.schema]: CONTROL_CHANGE_SCHEMA_HEADER };
  return writeOutbox(
    tx,
    CONTROL_OUTBOX_TABLE,
    CONTROL_OUTBOX_PARTITION,
    changes.map((what) => {
      const value: ControlChange = { project_key: projectKey, revision, change: what.change, at: new Date().toISOString() };
      if (what.tileId !== undefined) value.tile_id = what.tileId;
      return { topic: feed.topic, key: projectKey, value: JSON.stringify(value), headers };
    }),
  );
}

/** After a failed write: what Redis was told before the commit is put back to what Postgres holds. */
async function republishRevisions(pool: Pool, feed: ControlFeed, projectKeys: readonly string[]): Promise<void> {
  if (projectKeys.length === 0) return;
  const { rows } = await pool
    .query<{ project_key: string; revision: string }>('SELECT project_key, revision::text AS revision FROM projects WHERE project_key = ANY($1::text[])', [
      projectKeys,
    ])
    .catch(() => ({ rows: [] as { project_key: string; revision: string }[] }));
  for (const r of rows) await feed.publishRevision(r.project_key, Number(r.revision)).catch(() => undefined);
}
