import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { DEFAULT_MAX_GROUPS_PER_TILE, MAX_GROUPS_CEILING, type ValidationDetails } from '@pulseboard/contracts';
import {
  loadProjectRules,
  projectRevisions,
  RevisionCache,
  type RevisionCacheMetrics,
  type RevisionTrigger,
  type RuleTileRow,
} from '@pulseboard/control-plane';
import { compileProjectRules, type ProjectRules } from '@pulseboard/rules';

export type TileRow = RuleTileRow;

/** A project's tiles at one revision of the project, compiled once per revision (never per event). */
export interface ProjectTiles {
  projectKey: string;
  /** The project's revision (projects.revision) these tiles were read at; 0: no such project. */
  revision: number;
  rules: ProjectRules;
  rows: ReadonlyMap<number, TileRow>;
  /** Groups a grouped tile of this project holds at once (its settings' max_groups_per_tile, bounded). */
  maxGroupsPerTile: number;
}

export interface RuleChange {
  projectKey: string;
  previous: ProjectTiles;
  next: ProjectTiles;
}

/** A project's tiles, and the change from the copy the cache held before when this call replaced one. */
export interface Loaded {
  tiles: ProjectTiles;
  change?: RuleChange;
}

/**
 * The compiled rules of the projects this instance has seen, each at the
 * project revision it was read at, held in a RevisionCache (single-flight
 * loads, newer wins). Every control-plane write bumps the project's revision,
 * so a copy is current exactly when its revision is, and there are three ways
 * to learn of a newer one: the revision an event carries (the accepting
 * gateway's, `atLeast`: read-your-writes by order), the control topic
 * (`catchUp`), and a slow poll of the revisions as a safety net (`refresh`,
 * driven by the service so that it applies what changed).
 */
export class RulesCache {
  private readonly cache: RevisionCache<string, ProjectTiles>;

  constructor(
    private readonly pool: Pool,
    private readonly validate: (rule: unknown) => ValidationDetails | null,
    private readonly logger: Logger,
    metrics?: RevisionCacheMetrics,
  ) {
    this.cache = new RevisionCache<string, ProjectTiles>({
      load: (projectKey) => this.compile(projectKey),
      revisionOf: (tiles) => tiles.revision,
      // The service polls (`refresh`), since a poll's changes must be applied.
      pollMs: 0,
      onChange: (projectKey, next) =>
        this.logger.info({ event: 'tile_rules_reloaded', project_key: projectKey, revision: next.revision, tiles: next.rows.size }),
      ...(metrics === undefined ? {} : { metrics }),
    });
  }

  /** The cached copy, whatever its revision. */
  cached(projectKey: string): ProjectTiles | undefined {
    return this.cache.cached(projectKey);
  }

  get(projectKey: string): ProjectTiles | Promise<ProjectTiles> {
    return this.cache.get(projectKey);
  }

  /**
   * The project's rules at revision `atLeast` or newer: from memory when the
   * cached copy is that new, else read again. A load already under way may
   * have read before that revision committed; then it is read once more.
   */
  async atLeast(projectKey: string, revision: number, trigger: RevisionTrigger = 'offer'): Promise<Loaded> {
    const { value: tiles, replaced } = await this.cache.atLeastChange(projectKey, revision, trigger);
    // An event stamped with a revision Postgres does not have (a restored database): evaluate with what there is.
    if (tiles.revision < revision) this.logger.warn({ event: 'rules_revision_ahead', project_key: projectKey, wanted: revision, have: tiles.revision });
    return replaced === undefined ? { tiles } : { tiles, change: { projectKey, previous: replaced, next: tiles } };
  }

  /** After a control-topic message: re-reads a cached project whose copy is older than `revision`. */
  async catchUp(projectKey: string, revision: number): Promise<RuleChange | undefined> {
    const current = this.cache.cached(projectKey);
    if (current === undefined || current.revision >= revision) return undefined;
    return (await this.atLeast(projectKey, revision)).change;
  }

  /** The safety net: compares every cached project's revision with Postgres and re-reads those that moved. */
  async refresh(): Promise<RuleChange[]> {
    const keys = this.cache.keys();
    if (keys.length === 0) return [];
    const revisions = await projectRevisions(this.pool, keys);
    const changed: RuleChange[] = [];
    for (const key of keys) {
      const previous = this.cache.cached(key);
      const revision = revisions.get(key) ?? 0;
      if (previous === undefined || previous.revision === revision) continue;
      const { change } = await this.atLeast(key, revision, 'poll');
      if (change !== undefined) changed.push(change);
    }
    return changed;
  }

  private async compile(projectKey: string): Promise<ProjectTiles> {
    const { revision, tiles, maxGroupsPerTile } = await loadProjectRules(this.pool, projectKey);
    const rules = compileProjectRules(tiles, this.validate);
    for (const { id, details } of rules.invalid) this.logger.warn({ event: 'tile_rule_invalid', project_key: projectKey, tile_id: id, details });
    const maxGroups = Math.min(MAX_GROUPS_CEILING, Math.max(1, maxGroupsPerTile ?? DEFAULT_MAX_GROUPS_PER_TILE));
    return { projectKey, revision, rules, rows: new Map(tiles.map((r) => [r.id, r])), maxGroupsPerTile: maxGroups };
  }
}
