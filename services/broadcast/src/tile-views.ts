import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { loadDashboardTiles, projectRevisions, type DashboardTile, type DashboardTiles } from '@pulseboard/control-plane';
import { diffTiles } from './tile-diff.ts';

interface View {
  revision: number;
  tiles: DashboardTile[];
  /** The reading under way (reads of one project never overlap, so diffs follow one another). */
  reading: Promise<void>;
  /** A newer revision was announced while reading: read once more after. */
  wanted: number;
}

/**
 * The tiles of every project this instance has subscribers for, as of a
 * project revision. A control message with a newer revision reads the project
 * again (through @pulseboard/control-plane) and the difference goes out as
 * tile_added / tile_updated / tile_removed frames, each built once for all
 * subscribers. A repeated or older message changes nothing (revisions).
 */
export class TileViews {
  private readonly views = new Map<string, View>();

  constructor(
    private readonly deps: {
      pool: Pool;
      logger: Logger;
      /** Sends a frame to the project's subscribers. */
      publish: (project: string, frame: Buffer) => void;
      load?: (pool: Pool, project: string) => Promise<DashboardTiles>;
      revisions?: (pool: Pool, projects: readonly string[]) => Promise<Map<string, number>>;
    },
  ) {}

  /** Starts following a project (its first subscriber); resolves once its tiles are read. */
  async watch(project: string): Promise<void> {
    let view = this.views.get(project);
    if (view === undefined) {
      view = { revision: -1, tiles: [], reading: Promise.resolve(), wanted: 0 };
      this.views.set(project, view);
      const v = view;
      view.reading = this.read(project, v, false);
    }
    await view.reading;
  }

  /** Its last subscriber left. */
  unwatch(project: string): void {
    this.views.delete(project);
  }

  watched(): string[] {
    return [...this.views.keys()];
  }

  /** A control message: the project is at `revision` (or later). */
  changed(project: string, revision: number): void {
    const view = this.views.get(project);
    if (view === undefined || revision <= view.revision) return;
    this.refresh(project, view, revision);
  }

  /**
   * The safety net for a lost control message: the revisions of every watched
   * project in one statement, and only a project whose revision moved past its
   * view is read again (a tile write bumps the revision in its own
   * transaction). Reading every project's tiles instead cost one statement per
   * project per poll (100 projects every 30 s: 3.3 a second, the most of any
   * idle statement). A project absent from the answer has no tiles to show
   * (a read would answer revision 0 and change nothing).
   */
  async refreshAll(): Promise<void> {
    const projects = [...this.views.keys()];
    if (projects.length === 0) return;
    try {
      const revisions = await (this.deps.revisions ?? projectRevisions)(this.deps.pool, projects);
      for (const [project, revision] of revisions) this.changed(project, revision);
    } catch (error) {
      // The next poll or control message reads them.
      this.deps.logger.warn({ event: 'tile_revisions_read_failed', projects: projects.length, err: error });
    }
  }

  private refresh(project: string, view: View, revision: number): void {
    if (revision <= view.wanted) return;
    view.wanted = revision;
    view.reading = view.reading.then(() => (view.revision < view.wanted && this.views.get(project) === view ? this.read(project, view, true) : undefined));
  }

  private async read(project: string, view: View, announce: boolean): Promise<void> {
    try {
      const now = await (this.deps.load ?? loadDashboardTiles)(this.deps.pool, project);
      if (this.views.get(project) !== view) return;
      // A refresh asked for "anything newer" gets what there is; it is then current.
      if (view.wanted === Number.MAX_SAFE_INTEGER) view.wanted = now.revision;
      if (now.revision <= view.revision && announce) return;
      const messages = announce ? diffTiles(project, now.revision, view.tiles, now.tiles) : [];
      view.revision = now.revision;
      view.tiles = now.tiles;
      for (const m of messages) this.deps.publish(project, Buffer.from(JSON.stringify(m), 'utf8'));
    } catch (error) {
      // The next message or the safety poll reads it again.
      view.wanted = view.revision;
      this.deps.logger.warn({ event: 'tile_view_read_failed', project, err: error });
    }
  }
}
