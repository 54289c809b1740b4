import type { DashboardTile } from '@pulseboard/control-plane';

export type TileField = 'name' | 'kind' | 'position' | 'rule' | 'settings';

export type TileMessage =
  | { type: 'tile_added'; v: 1; project: string; revision: number; tile: DashboardTile }
  | { type: 'tile_updated'; v: 1; project: string; revision: number; tile: DashboardTile; changed: TileField[] }
  | { type: 'tile_removed'; v: 1; project: string; revision: number; tile_id: number };

// Tile rules and settings are small JSON objects read by the same query each time: equal text, equal value.
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed between two readings of a project's tiles, as protocol messages (removals, then additions and updates in dashboard order). */
export function diffTiles(project: string, revision: number, before: readonly DashboardTile[], after: readonly DashboardTile[]): TileMessage[] {
  const old = new Map(before.map((t) => [t.tile_id, t]));
  const now = new Set(after.map((t) => t.tile_id));
  const out: TileMessage[] = [];
  for (const t of before) if (!now.has(t.tile_id)) out.push({ type: 'tile_removed', v: 1, project, revision, tile_id: t.tile_id });
  for (const tile of after) {
    const was = old.get(tile.tile_id);
    if (was === undefined) {
      out.push({ type: 'tile_added', v: 1, project, revision, tile });
      continue;
    }
    const changed: TileField[] = [];
    if (was.tile_name !== tile.tile_name) changed.push('name');
    if (was.kind !== tile.kind) changed.push('kind');
    if (was.position !== tile.position) changed.push('position');
    if (!same(was.rule, tile.rule)) changed.push('rule');
    if (!same(was.settings, tile.settings)) changed.push('settings');
    if (changed.length > 0) out.push({ type: 'tile_updated', v: 1, project, revision, tile, changed });
  }
  return out;
}
