import type { ProjectTargets, TileTargets } from '@pulseboard/control-plane';

/** Why the targets were read from Postgres (a metric label). */
export type TargetsRead = 'snapshot' | 'feed' | 'revision' | 'new_project' | 'poll';

/** Reads targets from Postgres: of these projects, or of every project. */
export type TargetsLoader = (projectKeys?: readonly string[]) => Promise<Map<string, ProjectTargets>>;

/**
 * Which services each tile notifies, per project, at the revision it was read
 * at: kept in memory, so a batch of tile changes of projects that notify
 * nobody costs no Postgres round trip. It learns of changes three ways, all
 * by the project's revision (every tile write and every service deletion bumps
 * it): the control topic (`catchUp`), the revision a tile change carries
 * (`targetsFor`: the rules it was evaluated with, at least as new as any tile
 * write answered before its event was accepted, so an attachment is in force
 * for the next change by order, not by timing), and a slow poll of everything
 * (`refreshAll`, a safety net). A copy is replaced only by a newer or equal
 * revision, so the three may race in any order.
 */
export class NotificationTargets {
  private readonly projects = new Map<string, ProjectTargets>();

  constructor(
    private readonly load: TargetsLoader,
    private readonly onRead: (reason: TargetsRead, projects: number) => void = () => undefined,
  ) {}

  /** Every project's targets (start-up snapshot, safety-net poll); projects gone from Postgres are dropped. */
  async refreshAll(reason: 'snapshot' | 'poll' = 'snapshot'): Promise<void> {
    const fresh = await this.load();
    this.onRead(reason, fresh.size);
    for (const key of this.projects.keys()) if (!fresh.has(key)) this.projects.delete(key);
    this.merge(fresh, []);
  }

  /** A control-topic message: a known project older than `revision` is read again (an unknown one waits for its first tile change). */
  async catchUp(projectKey: string, revision: number): Promise<void> {
    const current = this.projects.get(projectKey);
    if (current === undefined || current.revision >= revision) return;
    await this.reload([projectKey], 'feed');
  }

  /**
   * The targets of each change's tile. A project not in memory, or older than
   * the revision its change carries, is read first (one statement for all of
   * them); any other costs nothing.
   */
  async targetsFor(changes: readonly { projectKey: string; tileId: number; revision: number }[]): Promise<Map<number, TileTargets>> {
    const unknown = new Set<string>();
    const stale = new Set<string>();
    for (const c of changes) {
      const current = this.projects.get(c.projectKey);
      if (current === undefined) unknown.add(c.projectKey);
      else if (current.revision < c.revision) stale.add(c.projectKey);
    }
    if (unknown.size > 0 || stale.size > 0) await this.reload([...unknown, ...stale], stale.size > 0 ? 'revision' : 'new_project');
    const targets = new Map<number, TileTargets>();
    for (const c of changes) {
      const found = this.projects.get(c.projectKey)?.tiles.get(c.tileId);
      if (found !== undefined) targets.set(c.tileId, found);
    }
    return targets;
  }

  /** How many projects are in memory (tests). */
  size(): number {
    return this.projects.size;
  }

  private async reload(projectKeys: string[], reason: TargetsRead): Promise<void> {
    const fresh = await this.load(projectKeys);
    this.onRead(reason, projectKeys.length);
    this.merge(fresh, projectKeys);
  }

  /** Newer-or-equal copies win; a project asked for and not found is remembered as empty (revision 0) so it is not asked again. */
  private merge(fresh: Map<string, ProjectTargets>, asked: readonly string[]): void {
    for (const [key, targets] of fresh) {
      const current = this.projects.get(key);
      if (current === undefined || targets.revision >= current.revision) this.projects.set(key, targets);
    }
    for (const key of asked) if (!fresh.has(key) && !this.projects.has(key)) this.projects.set(key, { revision: 0, tiles: new Map() });
  }
}
