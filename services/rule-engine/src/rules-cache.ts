import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { ValidationDetails } from '@pulseboard/contracts';
import { compileProjectRules, type ProjectRules } from './rules/index.ts';
import { loadProjectTiles, tileRevisions, type TileRow } from './repository.ts';

/** A project's tiles, compiled once per rule change (never per event). */
export interface ProjectTiles {
  projectKey: string;
  revision: string;
  rules: ProjectRules;
  rows: ReadonlyMap<number, TileRow>;
}

export interface RuleChange {
  projectKey: string;
  previous: ProjectTiles;
  next: ProjectTiles;
}

/**
 * The compiled rules of the projects this instance has seen. `refresh()`
 * (every RULES_POLL_MS) compares a digest of each cached project's tiles with
 * Postgres and recompiles the projects whose tiles changed, so a tile
 * create, update or delete reaches the engine within a poll, with no restart
 * and no message the gateway would have to send reliably.
 */
export class RulesCache {
  private readonly projects = new Map<string, ProjectTiles>();
  private readonly loading = new Map<string, Promise<ProjectTiles>>();

  constructor(
    private readonly pool: Pool,
    private readonly validate: (rule: unknown) => ValidationDetails | null,
    private readonly logger: Logger,
  ) {}

  get(projectKey: string): ProjectTiles | Promise<ProjectTiles> {
    return this.projects.get(projectKey) ?? this.load(projectKey);
  }

  private load(projectKey: string): Promise<ProjectTiles> {
    let pending = this.loading.get(projectKey);
    if (pending === undefined) {
      pending = this.compile(projectKey)
        .then((tiles) => {
          this.projects.set(projectKey, tiles);
          return tiles;
        })
        .finally(() => this.loading.delete(projectKey));
      this.loading.set(projectKey, pending);
    }
    return pending;
  }

  private async compile(projectKey: string): Promise<ProjectTiles> {
    // Digest first: a change between the two reads shows as a changed digest at the next refresh.
    const revision = (await tileRevisions(this.pool, [projectKey])).get(projectKey) ?? '';
    const rows = await loadProjectTiles(this.pool, projectKey);
    const rules = compileProjectRules(rows, this.validate);
    for (const { id, details } of rules.invalid) this.logger.warn({ event: 'tile_rule_invalid', project_key: projectKey, tile_id: id, details });
    return { projectKey, revision, rules, rows: new Map(rows.map((r) => [r.id, r])) };
  }

  /** Recompiles the cached projects whose tiles changed; returns what changed. */
  async refresh(): Promise<RuleChange[]> {
    const keys = [...this.projects.keys()];
    if (keys.length === 0) return [];
    const revisions = await tileRevisions(this.pool, keys);
    const changed: RuleChange[] = [];
    for (const key of keys) {
      const previous = this.projects.get(key);
      if (previous === undefined || previous.revision === (revisions.get(key) ?? '')) continue;
      const next = await this.compile(key);
      this.projects.set(key, next);
      changed.push({ projectKey: key, previous, next });
      this.logger.info({ event: 'tile_rules_reloaded', project_key: key, tiles: next.rows.size });
    }
    return changed;
  }
}
