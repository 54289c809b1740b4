import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { loadDashboardTiles, loadDashboardTilesById, projectRevisions, type DashboardTile, type DashboardTiles } from '@pulseboard/control-plane';
import { diffTiles } from './tile-diff.ts';

interface View {
  revision: number;
  tiles: DashboardTile[];
  /** The reading under way (reads of one project never overlap, so diffs follow one another). */
  reading: Promise<void>;
  /** A newer revision was announced while reading: read once more after. */
  wanted: number;
  /**
   * The tile each announced revision past `revision` changed (a tile_* control message names it);
   * undefined for one that did not say (a project change, the safety poll): the whole project is read.
   */
  hints: Map<number, number | undefined>;
}

// Past this many revisions to catch up, or as many hints kept, the whole project is read instead.
const MAX_TILE_READ = 20;
const MAX_HINTS = 100;

/**
 * The tiles of every project this instance has subscribers for, as of a
 * project revision. A control message with a newer revision reads what
 * changed (through @pulseboard/control-plane) and the difference goes out as
 * tile_added / tile_updated / tile_removed frames, each built once for all
 * subscribers. A repeated or older message changes nothing (revisions).
 *
 * A tile write changes one tile and bumps the revision by one, and its
 * message names the tile: when every revision between the view's and the
 * newest announced one named its tile, only those tiles are read (with the
 * revision, in one statement), not the project's every tile (settings are
 * capped at 16 KiB, but a project has up to MAX_TILES_PER_PROJECT tiles). If
 * the revision read is not the one expected (another write came between), or
 * any revision did not name a tile, the whole project is read as before.
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
      loadTiles?: (pool: Pool, project: string, tileIds: readonly number[]) => Promise<DashboardTiles>;
      revisions?: (pool: Pool, projects: readonly string[]) => Promise<Map<string, number>>;
    },
  ) {}

  /** Starts following a project (its first subscriber); resolves once its tiles are read. */
  async watch(project: string): Promise<void> {
    let view = this.views.get(project);
    if (view === undefined) {
      view = { revision: -1, tiles: [], reading: Promise.resolve(), wanted: 0, hints: new Map() };
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

  /** A control message: the project is at `revision` (or later); `tileId`, the one tile that write changed. */
  changed(project: string, revision: number, tileId?: number): void {
    const view = this.views.get(project);
    if (view === undefined || revision <= view.revision) return;
    if (view.hints.size >= MAX_HINTS) view.hints.clear();
    // Kept even when a read for a later revision is already planned: it may still be of use (out of order).
    if (!view.hints.has(revision)) view.hints.set(revision, tileId);
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
    view.reading = view.reading.then(() => (view.revision < view.wanted && this.views.get(project) === view ? this.catchUp(project, view) : undefined));
  }

  /** The tiles the revisions after the view's up to `wanted` changed, or undefined when one of them did not say. */
  private changedTiles(view: View): Set<number> | undefined {
    if (view.revision < 0 || view.wanted - view.revision > MAX_TILE_READ) return undefined;
    const ids = new Set<number>();
    for (let r = view.revision + 1; r <= view.wanted; r++) {
      const id = view.hints.get(r);
      if (id === undefined) return undefined;
      ids.add(id);
    }
    return ids;
  }

  private async catchUp(project: string, view: View): Promise<void> {
    const ids = this.changedTiles(view);
    if (ids === undefined) return this.read(project, view, true);
    const target = view.wanted;
    try {
      const now = await (this.deps.loadTiles ?? loadDashboardTilesById)(this.deps.pool, project, [...ids]);
      if (this.views.get(project) !== view) return;
      // Another write came between (or the project is gone): what changed is not known, read it all.
      if (now.revision !== target) return this.read(project, view, true);
      const tiles = [...view.tiles.filter((t) => !ids.has(t.tile_id)), ...now.tiles].sort((a, b) => a.position - b.position || a.tile_id - b.tile_id);
      this.settle(project, view, now.revision, tiles, true);
    } catch (error) {
      view.wanted = view.revision;
      this.deps.logger.warn({ event: 'tile_view_read_failed', project, err: error });
    }
  }

  /** The view is at `revision` with `tiles`: the difference goes out (when announced). */
  private settle(project: string, view: View, revision: number, tiles: DashboardTile[], announce: boolean): void {
    const messages = announce ? diffTiles(project, revision, view.tiles, tiles) : [];
    view.revision = revision;
    view.tiles = tiles;
    for (const r of view.hints.keys()) if (r <= revision) view.hints.delete(r);
    for (const m of messages) this.deps.publish(project, Buffer.from(JSON.stringify(m), 'utf8'));
  }

  private async read(project: string, view: View, announce: boolean): Promise<void> {
    try {
      const now = await (this.deps.load ?? loadDashboardTiles)(this.deps.pool, project);
      if (this.views.get(project) !== view) return;
      // A refresh asked for "anything newer" gets what there is; it is then current.
      if (view.wanted === Number.MAX_SAFE_INTEGER) view.wanted = now.revision;
      if (now.revision <= view.revision && announce) return;
      this.settle(project, view, now.revision, now.tiles, announce);
    } catch (error) {
      // The next message or the safety poll reads it again.
      view.wanted = view.revision;
      this.deps.logger.warn({ event: 'tile_view_read_failed', project, err: error });
    }
  }
}
