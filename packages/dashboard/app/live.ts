// One WebSocket to the broadcast service (services/broadcast/docs/protocol.md) and
// what the page shows of it. Changes are applied at once and listeners told once
// per animation frame, so 100 tiles changing every second cost one render a frame.
import { api, listAll, session, takeFragmentCredentials, type Refusals, type Status, type Tile, type TileState } from './api.ts';
import { numeric, statusOf } from './format.ts';
import { applyGroupChange, readGroups, type TileGroups } from './groups.ts';

export type ConnState = 'offline' | 'connecting' | 'live' | 'reconnecting' | 'closed';
export interface Point {
  /** Seconds since the epoch (uPlot's x). */
  t: number;
  status: Status;
  value: number | null;
}
/** GET /tiles/:id/history's entries (contracts' tile-history-entry.json), newest first. */
export interface HistoryRow {
  status: string;
  value: unknown;
  unit: string | null;
  changed_at: string;
}
export const RANGES = { hour: 3600, day: 86400 } as const;
export type Range = keyof typeof RANGES;

export class Live {
  conn: { state: ConnState; text: string } = { state: 'offline', text: 'Signed out' };
  signedIn = !!session.getItem('pb-token');
  signInError = '';
  kind: 'user' | 'project' | null = null;
  projects: Array<{ project_key: string; name: string }> = [];
  project: string | null = null;
  states = new Map<string, TileState>();
  tiles: Tile[] = [];
  history = new Map<string, Point[]>();
  /** Grouped tiles' groups (rule `group_by`), by tile id. */
  groups = new Map<string, TileGroups>();
  /** Each tile's unit as its history gave it (settings.unit, else the events' `unit` attribute). */
  units = new Map<string, string>();
  historyAvailable = true;
  range: Range = (session.getItem('pb-range') as Range) === 'day' ? 'day' : 'hour';
  notice = '';
  /** The project's refused requests of the last minutes, when there were any: why its tiles may stand still. */
  refusals: Refusals | null = null;
  changed = new Set<string>();
  /** Messages of kinds this page does not draw itself (the event tail), by type. */
  readonly handlers = new Map<string, (message: Record<string, unknown>) => void>();

  private ws: WebSocket | null = null;
  private retry = 500;
  private position: number | string | undefined;
  private listeners = new Set<() => void>();
  private frame = 0;

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tell listeners, at most once per frame. */
  emit(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      for (const listener of this.listeners) listener();
      this.changed.clear();
    });
  }

  private setConn(state: ConnState, text: string): void {
    this.conn = { state, text };
    this.emit();
  }

  send(message: object): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  signIn(token: string): void {
    session.setItem('pb-token', token.trim());
    this.signedIn = true;
    this.signInError = '';
    this.retry = 500;
    this.connect();
  }

  signOut(message = ''): void {
    session.clear();
    this.signedIn = false;
    this.project = null;
    this.refusals = null;
    this.states = new Map();
    this.tiles = [];
    this.history = new Map();
    this.groups = new Map();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    this.signInError = message;
    this.setConn('offline', 'Signed out');
  }

  connect(): void {
    if (!session.getItem('pb-token')) return;
    this.setConn('connecting', 'Connecting…');
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: session.getItem('pb-token') }));
    ws.onmessage = (e) => this.handle(JSON.parse(String(e.data)));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (e.code === 4001 || e.code === 4003)
        return this.signOut(e.code === 4001 ? 'That token or key was not accepted.' : 'Your credential was revoked. Sign in again.');
      if (!session.getItem('pb-token')) return;
      this.setConn('reconnecting', `Reconnecting in ${Math.round(this.retry / 1000)} s…`);
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  /** A reconnect with tiles on screen asks for what it missed; otherwise a snapshot. */
  private subscribeProject(resume: boolean): void {
    if (!resume || this.position === undefined || this.states.size === 0) {
      this.states = new Map();
      this.position = undefined;
    }
    this.send(this.position === undefined ? { type: 'subscribe', project: this.project } : { type: 'subscribe', project: this.project, since: this.position });
  }

  chooseProject(key: string): void {
    this.send({ type: 'unsubscribe', project: this.project });
    for (const handler of this.handlers.values()) handler({ type: 'project_switch' });
    this.project = key;
    session.setItem('pb-project', key);
    this.notice = '';
    this.tiles = [];
    this.history = new Map();
    this.groups = new Map();
    this.refusals = null;
    this.subscribeProject(false);
    void this.loadTiles();
    void this.refreshRefusals();
    this.emit();
  }

  /** Reads whether the project's events are being refused (the page asks every few seconds). */
  async refreshRefusals(): Promise<void> {
    const project = this.project;
    if (project === null || !this.signedIn) return;
    try {
      const { data } = await api<{ data: Refusals }>('GET', `/projects/${encodeURIComponent(project)}/refusals`);
      if (project !== this.project) return;
      this.refusals = data.count > 0 ? data : null;
      this.emit();
    } catch {
      // The next round asks again; a failing API shows elsewhere (the connection, the notices).
    }
  }

  setRange(range: Range): void {
    this.range = range;
    session.setItem('pb-range', range);
    void this.loadHistory();
  }

  /** The tiles' definitions (name, rule, settings, order) from the API. */
  async loadTiles(): Promise<void> {
    const project = this.project;
    if (project === null) return;
    try {
      const tiles = await listAll<Tile>(`/tiles?project_key=${encodeURIComponent(project)}`);
      if (project !== this.project) return;
      this.tiles = tiles.sort((a, b) => a.position - b.position || Number(a.id) - Number(b.id));
      for (const t of tiles) this.serverPosition.set(String(t.id), t.position);
      // A tile deleted (here or elsewhere) leaves the grid with its definition.
      const ids = new Set(tiles.map((t) => String(t.id)));
      for (const id of this.states.keys()) if (!ids.has(id)) this.states.delete(id);
      for (const id of this.groups.keys()) if (!ids.has(id)) this.groups.delete(id);
      for (const t of tiles) if (t.rule.group_by !== undefined) void this.loadGroups(String(t.id));
      this.emit();
      await this.loadHistory();
    } catch (error) {
      this.notice = `Could not read the tiles: ${(error as Error).message}`;
      this.emit();
    }
  }

  /** Each tile's recent past (GET /tiles/:id/history), then extended live by changes. */
  async loadHistory(): Promise<void> {
    const project = this.project;
    // Both ends given, a little past now for clocks apart: the server bounds the window to a day.
    const until = Date.now() + 5000;
    const window = `since=${encodeURIComponent(new Date(until - RANGES[this.range] * 1000).toISOString())}&until=${encodeURIComponent(new Date(until).toISOString())}`;
    await Promise.all(
      this.tiles.map(async (tile) => {
        const id = String(tile.id);
        let points: Point[] = [];
        if (this.historyAvailable) {
          try {
            const rows = await listAll<HistoryRow>(`/tiles/${id}/history?${window}`);
            const unit = rows.find((row) => row.unit !== null)?.unit;
            if (unit) this.units.set(id, unit);
            points = rows
              .map((row) => ({ t: Date.parse(row.changed_at) / 1000, status: statusOf(row.status), value: numeric(row.value) }))
              .sort((a, b) => a.t - b.t);
          } catch (error) {
            // Before the history endpoint exists the chart starts from what this page saw.
            if ((error as { status?: number }).status === 404) this.historyAvailable = false;
          }
        }
        if (project !== this.project) return;
        const seen = (this.history.get(id) ?? []).filter((p) => p.t > (points.at(-1)?.t ?? 0));
        this.history.set(id, [...points, ...seen]);
        this.changed.add(id);
      }),
    );
    this.emit();
  }

  /**
   * A tile's history from `since` (epoch s) on was replaced (an applied replay, `tile_replaced`):
   * that part is read again; the points before it stay, and so do live changes newer than what the read gave.
   */
  private async reloadHistory(id: string, since: number): Promise<void> {
    const project = this.project;
    if (!this.historyAvailable) return;
    const asked = Date.now() / 1000;
    // The server bounds a window to a day, as this page keeps.
    const until = asked + 5;
    const from = Math.max(since, until - RANGES.day);
    let rows: HistoryRow[];
    try {
      rows = await listAll<HistoryRow>(
        `/tiles/${id}/history?since=${encodeURIComponent(new Date(from * 1000).toISOString())}&until=${encodeURIComponent(new Date(until * 1000).toISOString())}`,
      );
    } catch {
      return; // the chart keeps what it had; the next load of the page reads it all
    }
    if (project !== this.project || this.removed.has(id)) return;
    const read = rows
      .map((row) => ({ t: Date.parse(row.changed_at) / 1000, status: statusOf(row.status), value: numeric(row.value) }))
      .sort((a, b) => a.t - b.t);
    const last = read.at(-1)?.t ?? asked;
    const points = this.history.get(id) ?? [];
    this.history.set(id, [...points.filter((p) => p.t < from), ...read, ...points.filter((p) => p.t > last)]);
    this.changed.add(id);
    this.emit();
  }

  /** A grouped tile's counts and worst groups; `pages` pages of them (the "more" of the card reads one more). */
  async loadGroups(id: string, pages = this.groups.get(id)?.pages ?? 1): Promise<void> {
    const project = this.project;
    try {
      const groups = await readGroups(id, pages);
      if (project !== this.project || this.removed.has(id)) return;
      if (groups === undefined) this.groups.delete(id);
      else this.groups.set(id, groups);
      this.changed.add(id);
      this.emit();
    } catch {
      // The card keeps what it showed; the next change or load reads them again.
    }
  }

  private groupReads = new Map<string, ReturnType<typeof setTimeout>>();
  /** Reads a tile's groups again soon, once for a burst of changes. */
  private rereadGroups(id: string): void {
    if (this.groupReads.has(id)) return;
    this.groupReads.set(
      id,
      setTimeout(() => {
        this.groupReads.delete(id);
        void this.loadGroups(id);
      }, 1000),
    );
  }

  /** One group's changes over the chosen range (GET /tiles/:id/history?group=KEY), oldest first. */
  async groupHistory(id: string, key: string): Promise<Point[]> {
    const until = Date.now() + 5000;
    const since = new Date(until - RANGES[this.range] * 1000).toISOString();
    const rows = await listAll<HistoryRow>(
      `/tiles/${id}/history?group=${encodeURIComponent(key)}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(new Date(until).toISOString())}`,
    );
    return rows.map((row) => ({ t: Date.parse(row.changed_at) / 1000, status: statusOf(row.status), value: numeric(row.value) })).sort((a, b) => a.t - b.t);
  }

  private unitAsked = new Map<string, number>();
  /** Tiles removed while shown: a late change for one does not bring it back (protocol.md). */
  private removed = new Set<string>();

  /** tile_added / tile_updated: insert or replace the definition (idempotent). */
  private applyTile(message: Record<string, any>): void {
    const t = message.tile;
    const id = String(t.tile_id);
    this.removed.delete(id);
    const was = this.tiles.find((x) => String(x.id) === id);
    const tile: Tile = {
      id: t.tile_id,
      project_key: message.project,
      name: t.tile_name,
      kind: t.kind,
      rule: t.rule,
      settings: t.settings ?? {},
      position: t.position,
      notification_service_ids: was?.notification_service_ids ?? [],
    };
    this.serverPosition.set(id, tile.position);
    this.tiles = [...this.tiles.filter((x) => String(x.id) !== id), tile].sort((a, b) => a.position - b.position || Number(a.id) - Number(b.id));
    if (!this.states.has(id)) this.states.set(id, { tile_id: t.tile_id, tile_name: t.tile_name, status: 'unknown', value: null, version: 0, changed_at: null });
    if (t.rule?.group_by !== undefined) void this.loadGroups(id, 1);
    else this.groups.delete(id);
    this.changed.add(id);
    this.emit();
  }

  /**
   * A change does not carry the events' unit; the history does (once the store has the
   * event, which may take seconds). A tile with a number and no unit known asks its latest
   * entry after 0, 1, 2, 3, 5 and 8 s, and again at most every 30 s.
   */
  private askUnit(id: string, attempt = 0): void {
    if (this.units.has(id) || !this.historyAvailable) return;
    if (attempt === 0 && Date.now() - (this.unitAsked.get(id) ?? 0) < 30000) return;
    this.unitAsked.set(id, Date.now());
    api<{ data: HistoryRow[] }>('GET', `/tiles/${id}/history?per_page=1`).then(
      (res) => {
        const unit = res.data[0]?.unit;
        if (!unit) {
          const delay = [1000, 2000, 3000, 5000, 8000][attempt];
          if (delay !== undefined) setTimeout(() => this.askUnit(id, attempt + 1), delay);
          return;
        }
        this.units.set(id, unit);
        this.changed.add(id);
        this.emit();
      },
      () => undefined,
    );
  }

  private addPoint(id: string, point: Point): void {
    const points = this.history.get(id) ?? [];
    const last = points.at(-1);
    if (last && last.t > point.t) return;
    points.push(point);
    const oldest = Date.now() / 1000 - RANGES.day;
    while (points.length > 0 && points[0]!.t < oldest) points.shift();
    this.history.set(id, points);
  }

  private handle(m: Record<string, any>): void {
    switch (m.type) {
      case 'ready': {
        this.kind = m.kind;
        this.projects = m.projects;
        const saved = session.getItem('pb-project');
        const next = this.projects.some((p) => p.project_key === saved) ? saved : (this.projects[0]?.project_key ?? null);
        if (next === null) {
          this.notice = 'No project to show.';
          return this.emit();
        }
        const same = next === this.project;
        this.project = next;
        this.subscribeProject(same);
        if (!same || this.tiles.length === 0) void this.loadTiles();
        if (!same) void this.refreshRefusals();
        return this.emit();
      }
      case 'snapshot':
        this.removed = new Set();
        this.states = new Map(m.tiles.map((t: TileState) => [String(t.tile_id), t]));
        this.position = m.position;
        for (const t of m.tiles as TileState[])
          if (t.changed_at && !this.history.get(String(t.tile_id))?.length)
            this.addPoint(String(t.tile_id), { t: Date.parse(t.changed_at) / 1000, status: statusOf(t.status), value: numeric(t.value) });
        return this.emit();
      case 'tile_added':
      case 'tile_updated':
        if (m.v !== 1 || m.project !== this.project) return;
        return this.applyTile(m);
      case 'tile_replaced': {
        if (m.v !== 1 || m.project !== this.project) return;
        const id = String(m.tile_id);
        if (this.removed.has(id)) return;
        // A change newer than the replay may have come first: the state with the higher version stays.
        const current = this.states.get(id);
        if (current === undefined || current.version <= m.state.version)
          this.states.set(id, {
            tile_id: m.tile_id,
            tile_name: current?.tile_name ?? this.tiles.find((t) => String(t.id) === id)?.name ?? '',
            status: m.state.status,
            value: m.state.value,
            version: m.state.version,
            changed_at: m.state.changed_at,
          });
        this.changed.add(id);
        void this.reloadHistory(id, Date.parse(m.since) / 1000);
        return this.emit();
      }
      case 'tile_removed': {
        if (m.v !== 1 || m.project !== this.project) return;
        const id = String(m.tile_id);
        this.removed.add(id);
        this.tiles = this.tiles.filter((t) => String(t.id) !== id);
        this.states.delete(id);
        this.history.delete(id);
        this.groups.delete(id);
        return this.emit();
      }
      case 'change': {
        const c = m.change;
        if (c.project_key !== this.project) return;
        const id = String(c.tile_id);
        if (this.removed.has(id)) return;
        // A group's change (rule group_by) moves the card's group list; the tile's own change comes beside it.
        if (c.group !== undefined) {
          this.position = c.position;
          const groups = this.groups.get(id);
          if (groups === undefined) return;
          const row = { key: String(c.group), status: statusOf(c.status), value: c.value, version: c.version, changed_at: c.changed_at };
          // A group not on the pages read may be counted already: the server's counts settle it.
          if (!groups.rows.some((r) => r.key === row.key) && groups.pages < groups.totalPages) this.rereadGroups(id);
          this.groups.set(id, applyGroupChange(groups, row));
          this.changed.add(id);
          return this.emit();
        }
        this.states.set(id, { tile_id: c.tile_id, tile_name: c.tile_name, status: c.status, value: c.value, version: c.version, changed_at: c.changed_at });
        this.position = c.position;
        this.addPoint(id, { t: Date.parse(c.changed_at) / 1000, status: statusOf(c.status), value: numeric(c.value) });
        this.changed.add(id);
        if (typeof c.value === 'number') this.askUnit(id);
        // A tile this page has not read the definition of (made elsewhere): read them again.
        if (!this.tiles.some((t) => String(t.id) === id)) void this.loadTiles();
        return this.emit();
      }
      case 'subscribed':
        this.retry = 500;
        this.position = m.position;
        return this.setConn('live', 'Live');
      case 'unsubscribed':
        if (m.project !== this.project || m.reason !== 'project_deleted') return;
        // The server ends a subscription by itself only when the project was deleted.
        this.states = new Map();
        this.tiles = [];
        this.position = undefined;
        this.projects = this.projects.filter((p) => p.project_key !== m.project);
        this.notice = `Project ${m.project} was deleted; choose another.`;
        return this.setConn('closed', 'Project deleted');
      case 'error':
        // A tail re-sent or stopped across a reconnect: nothing to tell the user.
        if (m.code === 'not_tailing' || m.code === 'already_tailing') return;
        this.notice = m.message;
        return this.emit();
      default:
        this.handlers.get(m.type)?.(m);
    }
  }

  /** After the page created, changed or deleted a tile. */
  async refreshTiles(): Promise<void> {
    await this.loadTiles();
  }

  /** Positions as the server last said or confirmed them; saves go one after another. */
  private serverPosition = new Map<string, number>();
  private orderChain: Promise<unknown> = Promise.resolve();

  /**
   * Shown at once; then each tile whose stored position differs is written, after any
   * save still under way (comparing with a position not yet written would skip a write).
   */
  saveOrder(ordered: Tile[]): Promise<unknown> {
    this.tiles = ordered.map((tile, position) => ({ ...tile, position }));
    this.emit();
    this.orderChain = this.orderChain.then(() =>
      Promise.all(
        ordered.map((tile, position) => {
          const id = String(tile.id);
          if (this.serverPosition.get(id) === position) return undefined;
          return api('PUT', `/tiles/${id}`, { position }).then(() => this.serverPosition.set(id, position));
        }),
      ).catch((error) => {
        this.notice = `Could not save the order: ${(error as Error).message}`;
        this.emit();
      }),
    );
    return this.orderChain;
  }
}

// Before the first render: a link's credentials (deploy/up.sh prints one) sign this tab in.
takeFragmentCredentials();
export const live = new Live();
// The link opened again in a tab that has the page already: only the fragment changes.
addEventListener('hashchange', () => {
  if (!takeFragmentCredentials()) return;
  const token = session.getItem('pb-token')!;
  const project = session.getItem('pb-project');
  live.signOut();
  if (project !== null) session.setItem('pb-project', project);
  live.signIn(token);
});
