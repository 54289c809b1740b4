import type { Pool } from 'pg';

/** A tile as the rule engine compiles it. */
export interface RuleTileRow {
  id: number;
  name: string;
  rule: unknown;
  /** md5 of the rule's jsonb text: equal rules, equal fingerprints. */
  fingerprint: string;
}

/** A project's tiles at one revision of the project (read in one snapshot). */
export interface ProjectRulesSnapshot {
  /** The project's revision these tiles belong to; 0 when there is no such project. */
  revision: number;
  tiles: RuleTileRow[];
  /** The project's `settings.max_groups_per_tile` when it is a whole number, else null (the default applies). */
  maxGroupsPerTile: number | null;
}

/**
 * The tiles of a project and the revision they belong to, in one statement (one
 * snapshot): a tile write bumps the revision in its own transaction, so the
 * pair is always consistent. A soft-deleted project has no tiles to evaluate.
 */
export async function loadProjectRules(pool: Pool, projectKey: string): Promise<ProjectRulesSnapshot> {
  const { rows } = await pool.query<{ revision: string; deleted: boolean; tiles: RuleTileRow[] | null; max_groups: unknown }>(
    `SELECT p.revision::text AS revision, p.deleted_at IS NOT NULL AS deleted, p.settings->'max_groups_per_tile' AS max_groups,
            (SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'rule', t.rule, 'fingerprint', md5(t.rule::text)) ORDER BY t.position, t.id)
               FROM tiles t WHERE t.project_key = p.project_key) AS tiles
       FROM projects p WHERE p.project_key = $1`,
    [projectKey],
  );
  const row = rows[0];
  if (row === undefined) return { revision: 0, tiles: [], maxGroupsPerTile: null };
  return {
    revision: Number(row.revision),
    tiles: row.deleted ? [] : (row.tiles ?? []).map((t) => ({ ...t, id: Number(t.id) })),
    maxGroupsPerTile: Number.isSafeInteger(row.max_groups) ? (row.max_groups as number) : null,
  };
}

/** The current revision of each given project (absent: no such project). */
export async function projectRevisions(pool: Pool, projectKeys: readonly string[]): Promise<Map<string, number>> {
  if (projectKeys.length === 0) return new Map();
  const { rows } = await pool.query<{ project_key: string; revision: string }>(
    'SELECT project_key, revision::text AS revision FROM projects WHERE project_key = ANY($1::text[])',
    [projectKeys],
  );
  return new Map(rows.map((r) => [r.project_key, Number(r.revision)]));
}
