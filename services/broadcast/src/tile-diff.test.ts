import { describe, expect, it } from 'vitest';
import type { DashboardTile } from '@pulseboard/control-plane';
import { diffTiles } from './tile-diff.ts';

const tile = (id: number, over: Partial<DashboardTile> = {}): DashboardTile => ({
  tile_id: id,
  tile_name: `T${id}`,
  kind: 'metric',
  position: id,
  rule: { filter: { type: 'metric' }, evaluation: { kind: 'status' } },
  settings: {},
  ...over,
});

describe('tile messages from two readings of a project', () => {
  it('says what was added, removed and which fields of which tile changed', () => {
    const before = [tile(1), tile(2), tile(3)];
    const after = [tile(1), tile(3, { tile_name: 'Renamed', rule: { filter: { type: 'error' }, evaluation: { kind: 'status' } } }), tile(4)];
    expect(diffTiles('p', 9, before, after)).toEqual([
      { type: 'tile_removed', v: 1, project: 'p', revision: 9, tile_id: 2 },
      { type: 'tile_updated', v: 1, project: 'p', revision: 9, tile: after[1], changed: ['name', 'rule'] },
      { type: 'tile_added', v: 1, project: 'p', revision: 9, tile: after[2] },
    ]);
  });

  it('nothing for an unchanged project (a revision bumped by a project write)', () => {
    expect(diffTiles('p', 2, [tile(1), tile(2)], [tile(1), tile(2)])).toEqual([]);
    expect(diffTiles('p', 2, [tile(1)], [tile(1, { position: 5, settings: { unit: '%' } })])[0]).toMatchObject({ changed: ['position', 'settings'] });
  });
});
