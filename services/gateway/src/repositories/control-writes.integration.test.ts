import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrateAll, type Pool } from '@pulseboard/db';
import { createScratchDatabase } from '@pulseboard/test-kit';
import { insertAccount } from './accounts.ts';
import type { ControlFeed } from './control-writes.ts';
import { deleteNotificationService, insertNotificationService } from './notifications.ts';
import { insertProject } from './projects.ts';
import { insertTile } from './tiles.ts';

/**
 * Control-plane writes as the rest of the system sees them: the rows, each
 * project's revision, the control outbox and what Redis was told. A database
 * of its own, so the outbox holds only this test's messages (no relay runs).
 */
describe('control-plane writes (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: Pool;

  beforeAll(async () => {
    database = await createScratchDatabase();
    await migrateAll(database.url, process.cwd());
    pool = createPool({ connectionString: database.url, applicationName: 'control-writes-test', max: 3 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** A feed that records what it is told; `failPublish` makes the next publish throw once. */
  function recordingFeed() {
    const published: [string, number][] = [];
    const state = { committed: 0, failPublish: false };
    const feed: ControlFeed = {
      topic: 'control-under-test',
      publishRevision: async (projectKey, revision) => {
        if (state.failPublish) {
          state.failPublish = false;
          throw new Error('redis away');
        }
        published.push([projectKey, revision]);
      },
      committed: () => void state.committed++,
    };
    return { feed, published, state };
  }

  const key = () => ({ hash: randomBytes(32), prefix: randomBytes(4).toString('hex') });
  const newKey = () => `p${randomBytes(6).toString('hex')}`;
  const revision = async (projectKey: string) =>
    Number((await pool.query<{ revision: string }>('SELECT revision::text AS revision FROM projects WHERE project_key = $1', [projectKey])).rows[0]!.revision);
  const outbox = async (projectKey: string) =>
    (await pool.query<{ value: string }>('SELECT value FROM control_outbox WHERE key = $1 ORDER BY id', [projectKey])).rows.map(
      (r) => JSON.parse(r.value) as { revision: number; change: string; tile_id?: number },
    );
  const serviceIds = async (tileId: number) =>
    (await pool.query<{ ids: string[] }>('SELECT notification_service_ids::text[] AS ids FROM tiles WHERE id = $1', [tileId])).rows[0]!.ids.map(Number);

  async function project(feed: ControlFeed, accountId: number): Promise<string> {
    const created = await insertProject(pool, feed, accountId, { project_key: newKey(), name: 'p', monthly_quota: 1000 }, key());
    if (typeof created === 'string') throw new Error(created);
    return created.project_key;
  }

  it('a new project is announced at revision 1 and told to nobody; an unknown account or a taken key writes nothing', async () => {
    const { feed, published, state } = recordingFeed();
    const account = await insertAccount(pool, 'a', undefined);
    const projectKey = await project(feed, account.id);
    expect(await outbox(projectKey)).toMatchObject([{ revision: 1, change: 'project_created' }]);
    expect(published).toEqual([]);
    expect(state.committed).toBe(1);

    expect(await insertProject(pool, feed, account.id, { project_key: projectKey, name: 'again', monthly_quota: 1 }, key())).toBe('taken');
    const missing = newKey();
    expect(await insertProject(pool, feed, 2_000_000_000, { project_key: missing, name: 'x', monthly_quota: 1 }, key())).toBe('no_account');
    expect(await outbox(projectKey)).toHaveLength(1);
    expect(await outbox(missing)).toEqual([]);
    expect(state.committed).toBe(1);
  });

  it('deleting a notification service takes it off the tiles of every project that named it: each project one revision up, one tile_updated per tile', async () => {
    const { feed, published, state } = recordingFeed();
    const account = await insertAccount(pool, 'b', undefined);
    const [first, second] = [await project(feed, account.id), await project(feed, account.id)];
    const service = await insertNotificationService(pool, account.id, { name: 'hook', kind: 'webhook', config: {}, secrets: null }, 10);
    const other = await insertNotificationService(pool, account.id, { name: 'other', kind: 'webhook', config: {}, secrets: null }, 10);
    if (service === 'full' || other === 'full') throw new Error('full');
    const tile = async (projectKey: string, ids: number[]) =>
      (await insertTile(pool, feed, projectKey, { name: 't', kind: 'metric', rule: {}, notification_service_ids: ids }, 10)) as { id: number };
    const a1 = await tile(first, [service.id, other.id]);
    const a2 = await tile(first, [service.id]);
    const b1 = await tile(second, [service.id]);
    const untouched = await tile(second, [other.id]);
    const before = { first: await revision(first), second: await revision(second) };
    published.length = 0;
    state.committed = 0;

    expect(await deleteNotificationService(pool, feed, account.id, service.id)).toBe(true);

    expect([await serviceIds(a1.id), await serviceIds(a2.id), await serviceIds(b1.id), await serviceIds(untouched.id)]).toEqual([
      [other.id],
      [],
      [],
      [other.id],
    ]);
    expect({ first: await revision(first), second: await revision(second) }).toEqual({ first: before.first + 1, second: before.second + 1 });
    const announced = async (projectKey: string) => (await outbox(projectKey)).filter((m) => m.revision > before[projectKey === first ? 'first' : 'second']);
    expect(await announced(first)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ change: 'tile_updated', tile_id: a1.id }),
        expect.objectContaining({ change: 'tile_updated', tile_id: a2.id }),
      ]),
    );
    expect(await announced(first)).toHaveLength(2);
    expect(await announced(second)).toMatchObject([{ change: 'tile_updated', tile_id: b1.id, revision: before.second + 1 }]);
    expect(published.sort()).toEqual(
      [
        [first, before.first + 1],
        [second, before.second + 1],
      ].sort(),
    );
    expect(state.committed).toBe(1);

    // Gone already: nothing changes, nothing is announced.
    expect(await deleteNotificationService(pool, feed, account.id, service.id)).toBe(false);
    expect(await revision(first)).toBe(before.first + 1);
    expect(state.committed).toBe(1);
  });

  it('a write that fails after Redis was told rolls back and tells Redis the revision Postgres kept', async () => {
    const { feed, published, state } = recordingFeed();
    const account = await insertAccount(pool, 'c', undefined);
    const projectKey = await project(feed, account.id);
    const service = await insertNotificationService(pool, account.id, { name: 'hook', kind: 'webhook', config: {}, secrets: null }, 10);
    if (service === 'full') throw new Error('full');
    const tile = (await insertTile(pool, feed, projectKey, { name: 't', kind: 'metric', rule: {}, notification_service_ids: [service.id] }, 10)) as {
      id: number;
    };
    const kept = await revision(projectKey);
    const messages = (await outbox(projectKey)).length;
    published.length = 0;
    state.committed = 0;
    state.failPublish = true;

    await expect(deleteNotificationService(pool, feed, account.id, service.id)).rejects.toThrow('redis away');

    expect(await serviceIds(tile.id)).toEqual([service.id]);
    expect(await revision(projectKey)).toBe(kept);
    expect(await outbox(projectKey)).toHaveLength(messages);
    expect(published).toEqual([[projectKey, kept]]);
    expect(state.committed).toBe(0);
    expect(await deleteNotificationService(pool, feed, account.id, service.id)).toBe(true);
  });
});
