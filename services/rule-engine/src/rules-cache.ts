import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { DEFAULT_MAX_GROUPS_PER_TILE, MAX_GROUPS_CEILING, type ValidationDetails } from '@pulseboard/contracts';
import { loadProjectRules, projectRevisions, type RuleTileRow } from '@pulseboard/control-plane';
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
 * project revision it was read at. Every control-plane write bumps the
 * project's revision, so a copy is current exactly when its revision is, and
 * there are three ways to learn of a newer one: the revision an event carries
 * (the accepting gateway's, `atLeast`: read-your-writes by order), the control
 * topic (`catchUp`), and a slow poll of the revisions as a safety net
 * (`refresh`). Loads of a project are single-flight.
 */
export class RulesCache {
  private readonly projects = new Map<string, ProjectTiles>();
  private readonly loading = new Map<string, Promise<Loaded>>();

  constructor(
    private readonly pool: Pool,
    private readonly validate: (rule: unknown) => ValidationDetails | null,
    private readonly logger: Logger,
  ) {}

  /** The cached copy, whatever its revision. */
  cached(projectKey: string): ProjectTiles | undefined {
    return this.projects.get(projectKey);
  }

  get(projectKey: string): ProjectTiles | Promise<ProjectTiles> {
    return this.projects.get(projectKey) ?? this.load(projectKey).then((loaded) => loaded.tiles);
  }

  /**
   * The project's rules at revision `atLeast` or newer: from memory when the
   * cached copy is that new, else read again. A load already under way may
   * have read before that revision committed; then it is read once more.
   */
  async atLeast(projectKey: string, revision: number): Promise<Loaded> {
    let change: RuleChange | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = this.projects.get(projectKey);
      if (current !== undefined && current.revision >= revision)
        return change === undefined ? { tiles: current } : { tiles: current, change: merge(change, current) };
      const loaded = await this.load(projectKey);
      if (loaded.change !== undefined) change = change === undefined ? loaded.change : merge(change, loaded.change.next);
    }
    const tiles = this.projects.get(projectKey)!;
    // An event stamped with a revision Postgres does not have (a restored database): evaluate with what there is.
    this.logger.warn({ event: 'rules_revision_ahead', project_key: projectKey, wanted: revision, have: tiles.revision });
    return change === undefined ? { tiles } : { tiles, change };
  }

  /** After a control-topic message: re-reads a cached project whose copy is older than `revision`. */
  async catchUp(projectKey: string, revision: number): Promise<RuleChange | undefined> {
    const current = this.projects.get(projectKey);
    if (current === undefined || current.revision >= revision) return undefined;
    return (await this.atLeast(projectKey, revision)).change;
  }

  /** The safety net: compares every cached project's revision with Postgres and re-reads those that moved. */
  async refresh(): Promise<RuleChange[]> {
    const keys = [...this.projects.keys()];
    if (keys.length === 0) return [];
    const revisions = await projectRevisions(this.pool, keys);
    const changed: RuleChange[] = [];
    for (const key of keys) {
      const previous = this.projects.get(key);
      if (previous === undefined || previous.revision === (revisions.get(key) ?? 0)) continue;
      const { change } = await this.load(key);
      if (change !== undefined) changed.push(change);
    }
    return changed;
  }

  private load(projectKey: string): Promise<Loaded> {
    let pending = this.loading.get(projectKey);
    if (pending === undefined) {
      pending = this.compile(projectKey)
        .then((tiles) => {
          const previous = this.projects.get(projectKey);
          // Never replace a copy with an older one (a slower load of an earlier revision).
          if (previous !== undefined && previous.revision >= tiles.revision) return { tiles: previous };
          this.projects.set(projectKey, tiles);
          if (previous === undefined) return { tiles };
          this.logger.info({ event: 'tile_rules_reloaded', project_key: projectKey, revision: tiles.revision, tiles: tiles.rows.size });
          return { tiles, change: { projectKey, previous, next: tiles } };
        })
        .finally(() => this.loading.delete(projectKey));
      this.loading.set(projectKey, pending);
    }
    return pending;
  }

  private async compile(projectKey: string): Promise<ProjectTiles> {
    const { revision, tiles, maxGroupsPerTile } = await loadProjectRules(this.pool, projectKey);
    const rules = compileProjectRules(tiles, this.validate);
    for (const { id, details } of rules.invalid) this.logger.warn({ event: 'tile_rule_invalid', project_key: projectKey, tile_id: id, details });
    const maxGroups = Math.min(MAX_GROUPS_CEILING, Math.max(1, maxGroupsPerTile ?? DEFAULT_MAX_GROUPS_PER_TILE));
    return { projectKey, revision, rules, rows: new Map(tiles.map((r) => [r.id, r])), maxGroupsPerTile: maxGroups };
  }
}

/** Two reloads in a row are one change, from the first's previous copy to the latest. */
function merge(change: RuleChange, next: ProjectTiles): RuleChange {
  return { projectKey: change.projectKey, previous: change.previous, next };
}
