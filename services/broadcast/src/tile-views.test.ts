import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Pool } from 'pg';
import type { DashboardTile, DashboardTiles } from '@pulseboard/control-plane';
import { TileViews } from './tile-views.ts';

const tile = (id: number, name = `T${id}`): DashboardTile => ({ tile_id: id, tile_name: name, kind: 'metric', position: id, rule: {}, settings: {} });

/** A project whose tiles the test sets; reads are counted and can be held to make them overlap. */
function setup() {
  let current: DashboardTiles = { revision: 3, tiles: [tile(1)] };
  let reads = 0;
  let revisionReads = 0;
  const tileReads: number[][] = [];
  let release: (() => void) | undefined;
  const sent: { project: string; message: any }[] = [];
  const views = new TileViews({
    pool: undefined as unknown as Pool,
    logger: pino({ level: 'silent' }),
    publish: (project, frame) => sent.push({ project, message: JSON.parse(frame.toString()) }),
    load: async () => {
      reads++;
      if (release === undefined) return current;
      await new Promise<void>((resolve) => (release = resolve));
      return current;
    },
    loadTiles: async (_pool, _project, ids) => {
      tileReads.push([...ids]);
      if (release !== undefined) await new Promise<void>((resolve) => (release = resolve));
      return { revision: current.revision, tiles: current.tiles.filter((t) => ids.includes(t.tile_id)) };
    },
    revisions: async (_pool, projects) => {
      revisionReads++;
      return new Map(projects.filter((p) => p === 'p').map((p) => [p, current.revision]));
    },
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    views,
    sent,
    settle,
    set: (next: DashboardTiles) => (current = next),
    reads: () => reads,
    tileReads: () => tileReads,
    revisionReads: () => revisionReads,
    hold: () => (release = () => undefined),
    releaseRead: () => {
      const held = release;
      release = undefined;
      held?.();
    },
  };
}

describe('tile views from the control feed', () => {
  it('a newer revision sends the difference once; a repeated or older one, or an unwatched project, reads nothing', async () => {
    const t = setup();
    await t.views.watch('p');
    expect(t.reads()).toBe(1);
    t.set({ revision: 4, tiles: [tile(1, 'CPU'), tile(2)] });
    t.views.changed('p', 4);
    await t.settle();
    expect(t.sent.map((s) => [s.message.type, s.message.revision])).toEqual([
      ['tile_updated', 4],
      ['tile_added', 4],
    ]);
    t.views.changed('p', 4);
    t.views.changed('p', 2);
    t.views.changed('other', 9);
    await t.settle();
    expect(t.reads()).toBe(2);
    expect(t.sent).toHaveLength(2);
  });

  it('revisions announced while a read is under way are coalesced into one more read, and nothing goes out after unwatch', async () => {
    const t = setup();
    await t.views.watch('p');
    t.hold();
    t.set({ revision: 5, tiles: [tile(1), tile(2)] });
    t.views.changed('p', 4);
    await t.settle();
    t.views.changed('p', 5);
    t.views.changed('p', 5);
    t.releaseRead();
    await t.settle();
    await t.settle();
    // The read that was held already saw revision 5: no third read, one message.
    expect(t.reads()).toBe(2);
    expect(t.sent.map((s) => s.message.type)).toEqual(['tile_added']);

    t.views.unwatch('p');
    t.set({ revision: 6, tiles: [] });
    t.views.changed('p', 6);
    await t.settle();
    expect(t.sent).toHaveLength(1);
  });

  it('the safety poll reads all revisions in one statement and the tiles only of a project that moved (a lost message)', async () => {
    const t = setup();
    await t.views.watch('p');
    await t.views.watch('gone');
    expect(t.reads()).toBe(2);
    await t.views.refreshAll();
    await t.settle();
    expect(t.revisionReads()).toBe(1);
    expect(t.reads()).toBe(2);
    expect(t.sent).toHaveLength(0);

    // A tile added whose control message never arrived: the next poll sends it.
    t.set({ revision: 4, tiles: [tile(1), tile(2)] });
    await t.views.refreshAll();
    await t.settle();
    expect(t.revisionReads()).toBe(2);
    expect(t.reads()).toBe(3);
    expect(t.sent.map((s) => [s.project, s.message.type, s.message.revision])).toEqual([['p', 'tile_added', 4]]);
  });

  it('a tile write reads only the tile it names: an update, a removal and an addition each read one tile, never the project (issue 41)', async () => {
    const t = setup();
    t.set({ revision: 3, tiles: [tile(1), tile(2), tile(3)] });
    await t.views.watch('p');
    expect(t.reads()).toBe(1);

    t.set({ revision: 4, tiles: [tile(1), tile(2, 'Renamed'), tile(3)] });
    t.views.changed('p', 4, 2);
    await t.settle();
    t.set({ revision: 5, tiles: [tile(1), tile(2, 'Renamed')] });
    t.views.changed('p', 5, 3);
    await t.settle();
    t.set({ revision: 6, tiles: [tile(0), tile(1), tile(2, 'Renamed')] });
    t.views.changed('p', 6, 0);
    await t.settle();

    expect(t.reads()).toBe(1);
    expect(t.tileReads()).toEqual([[2], [3], [0]]);
    expect(t.sent.map((s) => [s.message.type, s.message.revision, s.message.tile?.tile_id ?? s.message.tile_id])).toEqual([
      ['tile_updated', 4, 2],
      ['tile_removed', 5, 3],
      ['tile_added', 6, 0],
    ]);
    expect(t.sent[0]!.message.changed).toEqual(['name']);

    // The view is what a whole read would give: a later full read finds nothing to send.
    t.set({ revision: 7, tiles: [tile(0), tile(1), tile(2, 'Renamed')] });
    t.views.changed('p', 7);
    await t.settle();
    expect(t.reads()).toBe(2);
    expect(t.sent).toHaveLength(3);
  });

  it('tile writes announced during a read are read together; a revision that names no tile, or a revision read that is not the one expected, reads the whole project', async () => {
    const t = setup();
    t.set({ revision: 3, tiles: [tile(1), tile(2), tile(3)] });
    await t.views.watch('p');
    t.hold();
    t.set({ revision: 4, tiles: [tile(1, 'A'), tile(2), tile(3)] });
    t.views.changed('p', 4, 1);
    await t.settle();
    t.set({ revision: 6, tiles: [tile(1, 'B'), tile(2, 'C'), tile(3)] });
    t.views.changed('p', 6, 2);
    t.views.changed('p', 5, 1);
    t.releaseRead();
    await t.settle();
    await t.settle();
    // The held read (tile 1) saw revision 6, not the 4 it expected: a whole read, and nothing more after.
    expect(t.tileReads()).toEqual([[1]]);
    expect(t.reads()).toBe(2);
    expect(t.sent.map((s) => [s.message.type, s.message.revision, s.message.tile.tile_id])).toEqual([
      ['tile_updated', 6, 1],
      ['tile_updated', 6, 2],
    ]);

    // Two tile writes, both announced before the next read starts: one read of both tiles.
    t.set({ revision: 8, tiles: [tile(1, 'D'), tile(2, 'E'), tile(3)] });
    t.views.changed('p', 7, 1);
    t.views.changed('p', 8, 2);
    await t.settle();
    expect(t.tileReads()).toEqual([[1], [1, 2]]);
    expect(t.reads()).toBe(2);
    expect(t.sent.slice(2).map((s) => [s.message.type, s.message.revision, s.message.tile.tile_name])).toEqual([
      ['tile_updated', 8, 'D'],
      ['tile_updated', 8, 'E'],
    ]);

    // A revision without a tile (a project change) in between: the whole project.
    t.set({ revision: 10, tiles: [tile(1, 'D'), tile(2, 'E')] });
    t.views.changed('p', 9);
    t.views.changed('p', 10, 3);
    await t.settle();
    expect(t.reads()).toBe(3);
    expect(t.tileReads()).toHaveLength(2);
    expect(t.sent.at(-1)!.message).toMatchObject({ type: 'tile_removed', revision: 10, tile_id: 3 });
  });
});
