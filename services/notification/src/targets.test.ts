import { describe, expect, it } from 'vitest';
import type { ProjectTargets } from '@pulseboard/control-plane';
import { NotificationTargets, type TargetsRead } from './targets.ts';

/** A Postgres stand-in for the cache's logic only (the SQL is exercised by tests/e2e/notifications). */
function fakeDatabase() {
  const projects = new Map<string, ProjectTargets>();
  const reads: { reason: TargetsRead; keys: readonly string[] | undefined }[] = [];
  let lastKeys: readonly string[] | undefined;
  const load = async (keys?: readonly string[]) => {
    lastKeys = keys;
    return new Map([...projects].filter(([k]) => keys === undefined || keys.includes(k)));
  };
  const cache = new NotificationTargets(load, (reason) => reads.push({ reason, keys: lastKeys }));
  const set = (key: string, revision: number, tiles: [number, number[]][] = []) =>
    projects.set(key, { revision, tiles: new Map(tiles.map(([id, serviceIds]) => [id, { accountId: 1, serviceIds }])) });
  return { cache, set, reads };
}

describe('NotificationTargets', () => {
  it('answers changes of known projects from memory: no read for a project that notifies nobody', async () => {
    const db = fakeDatabase();
    db.set('quiet', 3);
    db.set('loud', 5, [[10, [7]]]);
    await db.cache.refreshAll();
    const found = await db.cache.targetsFor([
      { projectKey: 'quiet', tileId: 1, revision: 3 },
      { projectKey: 'loud', tileId: 10, revision: 5 },
      { projectKey: 'loud', tileId: 11, revision: 0 },
    ]);
    expect([...found]).toEqual([[10, { accountId: 1, serviceIds: [7] }]]);
    expect(db.reads.map((r) => r.reason)).toEqual(['snapshot']);
  });

  it('re-reads a project whose change carries a newer revision (an attachment answered before the event), once', async () => {
    const db = fakeDatabase();
    db.set('p', 3);
    await db.cache.refreshAll();
    db.set('p', 4, [[1, [9]]]);
    expect([...(await db.cache.targetsFor([{ projectKey: 'p', tileId: 1, revision: 4 }]))]).toEqual([[1, { accountId: 1, serviceIds: [9] }]]);
    await db.cache.targetsFor([{ projectKey: 'p', tileId: 1, revision: 4 }]);
    expect(db.reads.map((r) => [r.reason, r.keys])).toEqual([
      ['snapshot', undefined],
      ['revision', ['p']],
    ]);
  });

  it('follows the control feed for known projects only, and never goes back to an older copy', async () => {
    const db = fakeDatabase();
    db.set('p', 3, [[1, [9]]]);
    await db.cache.refreshAll();
    await db.cache.catchUp('p', 3);
    await db.cache.catchUp('elsewhere', 8);
    expect(db.reads).toHaveLength(1);
    db.set('p', 5);
    await db.cache.catchUp('p', 5);
    expect((await db.cache.targetsFor([{ projectKey: 'p', tileId: 1, revision: 0 }])).size).toBe(0);
    // A poll that read an older copy (it began before the write) does not undo it.
    db.set('p', 4, [[1, [9]]]);
    await db.cache.refreshAll('poll');
    expect((await db.cache.targetsFor([{ projectKey: 'p', tileId: 1, revision: 5 }])).size).toBe(0);
  });

  it('reads a project it has never seen once, remembering one that does not exist', async () => {
    const db = fakeDatabase();
    await db.cache.refreshAll();
    db.set('new', 2, [[4, [1, 2]]]);
    expect(
      (
        await db.cache.targetsFor([
          { projectKey: 'new', tileId: 4, revision: 2 },
          { projectKey: 'ghost', tileId: 5, revision: 0 },
        ])
      ).get(4)?.serviceIds,
    ).toEqual([1, 2]);
    await db.cache.targetsFor([{ projectKey: 'ghost', tileId: 5, revision: 0 }]);
    expect(db.reads.map((r) => [r.reason, r.keys])).toEqual([
      ['snapshot', undefined],
      ['new_project', ['new', 'ghost']],
    ]);
  });
});
