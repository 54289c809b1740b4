import { describe, expect, it } from 'vitest';
import type { TileTargets } from '@pulseboard/control-plane';
import type { NotificationRequest, TileChange } from '@pulseboard/contracts';
import { deliveryIntake, requestDelivery, revisionOf, transitionDeliveries, type ConsumedChange, type TargetLookup } from './intake.ts';
import type { DueDelivery, NewDelivery } from './repository.ts';

function change(over: Partial<TileChange>, revision?: string): ConsumedChange {
  const value: TileChange = {
    position: 1,
    tile_id: 10,
    project_key: 'pk_a',
    tile_name: 'Errors',
    status: 'critical',
    previous_status: 'ok',
    value: 5,
    previous_value: 1,
    version: 2,
    event_id: 77,
    changed_at: '2026-01-01T00:00:00.000Z',
    cause: 'event',
    ...over,
  };
  return { value, raw: { headers: revision === undefined ? {} : { 'pb-project-revision': Buffer.from(revision) } } };
}

/** Targets as NotificationTargets would answer, recording what it was asked. */
function lookup(targets: Record<number, TileTargets>) {
  const asked: { projectKey: string; tileId: number; revision: number }[][] = [];
  const found: TargetLookup = {
    targetsFor: async (changes) => {
      asked.push([...changes]);
      return new Map(changes.flatMap((c) => (targets[c.tileId] === undefined ? [] : [[c.tileId, targets[c.tileId]!] as const])));
    },
  };
  return { found, asked };
}

describe('transitionDeliveries', () => {
  it('one delivery per service the tile names, for status transitions only, asked at the revision each change carries', async () => {
    const { found, asked } = lookup({ 10: { accountId: 3, serviceIds: [7, 8] }, 11: { accountId: 3, serviceIds: [9] } });
    const rows = await transitionDeliveries(
      [
        change({ position: 5, tile_id: 10 }, '42'),
        change({ position: 6, tile_id: 11, status: 'ok', previous_status: 'ok', value: 2 }, '42'), // value only
        change({ position: 7, tile_id: 12 }, '43'), // notifies nobody
      ],
      found,
    );
    expect(asked).toEqual([
      [
        { projectKey: 'pk_a', tileId: 10, revision: 42 },
        { projectKey: 'pk_a', tileId: 12, revision: 43 },
      ],
    ]);
    expect(rows.map((r) => [r.id, r.serviceId, r.accountId, r.kind, r.tileId, r.eventId, r.position])).toEqual([
      ['dlv_5_7', 7, 3, 'transition', 10, 77, 5],
      ['dlv_5_8', 8, 3, 'transition', 10, 77, 5],
    ]);
    expect(rows[0]!.payload).toEqual({
      tile_id: 10,
      tile_name: 'Errors',
      project_key: 'pk_a',
      status: 'critical',
      previous_status: 'ok',
      value: 5,
      event_id: 77,
      changed_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('a batch without transitions asks for no targets at all', async () => {
    const { found, asked } = lookup({});
    expect(await transitionDeliveries([change({ status: 'ok', previous_status: 'ok' })], found)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("a grouped tile notifies on its own transitions, not each group's", async () => {
    const { found } = lookup({ 10: { accountId: 1, serviceIds: [7] } });
    const rows = await transitionDeliveries(
      [change({ position: 20, group: 'web-1', value: 97 }), change({ position: 21, group: 'web-2', value: 99 }), change({ position: 22, value: 2 })],
      found,
    );
    expect(rows.map((r) => [r.id, (r.payload as { value: unknown }).value])).toEqual([['dlv_22_7', 2]]);
  });

  it('the same change twice gives the same delivery ids (a redelivered message is a no-op downstream)', async () => {
    const { found } = lookup({ 10: { accountId: 1, serviceIds: [7] } });
    const once = await transitionDeliveries([change({ position: 9 })], found);
    const again = await transitionDeliveries([change({ position: 9 })], found);
    expect(again.map((r) => r.id)).toEqual(once.map((r) => r.id));
  });
});

describe('revisionOf', () => {
  it('reads the header, 0 when absent or not a positive integer', () => {
    expect(revisionOf(Buffer.from('12'))).toBe(12);
    expect(revisionOf(['3', '4'])).toBe(3);
    expect(revisionOf(undefined)).toBe(0);
    expect(revisionOf('x')).toBe(0);
    expect(revisionOf('-1')).toBe(0);
    expect(revisionOf('1.5')).toBe(0);
  });
});

describe('requestDelivery', () => {
  it('a send request is one delivery with the request id; a test send is kind test', () => {
    const r: NotificationRequest = { request_id: 'msg_1', service_id: 4, account_id: 2, subject: 's', body: 'b', test: false };
    expect(requestDelivery(r)).toEqual({
      id: 'msg_1',
      serviceId: 4,
      accountId: 2,
      kind: 'message',
      tileId: null,
      eventId: null,
      position: null,
      payload: { subject: 's', body: 'b' },
    });
    expect(requestDelivery({ ...r, test: true }).kind).toBe('test');
  });
});

describe('deliveryIntake', () => {
  const due = (id: string) => ({ id }) as DueDelivery;
  const row = (id: string) => ({ id }) as NewDelivery;

  function intake(fail?: (rows: NewDelivery[]) => boolean) {
    const log: string[] = [];
    let room = 0;
    const run = deliveryIntake({
      sliceSize: 2,
      reserve: async (n) => {
        room += n;
        log.push(`reserve ${n}`);
      },
      release: (n) => {
        room -= n;
        log.push(`release ${n}`);
      },
      insertClaimed: async (rows) => {
        if (fail?.(rows)) throw new Error('postgres down');
        // The second row of each slice existed already (a redelivery): not new.
        return rows.filter((_, i) => i === 0).map((r) => due(r.id));
      },
      sendClaimed: (fresh, reserved) => {
        room -= reserved;
        log.push(`send ${fresh.map((d) => d.id).join(',')} within ${reserved}`);
      },
      onCreated: (n) => log.push(`created ${n}`),
    });
    return { run, log, room: () => room };
  }

  it('writes and sends in slices the dispatcher has room for, each reserved first', async () => {
    const i = intake();
    await i.run(['a', 'b', 'c'].map(row));
    expect(i.log).toEqual(['reserve 2', 'created 1', 'send a within 2', 'reserve 1', 'created 1', 'send c within 1']);
    expect(i.room()).toBe(0);
  });

  it('a failed write gives its room back and fails the batch (its offsets do not move)', async () => {
    const i = intake((rows) => rows[0]!.id === 'c');
    await expect(i.run(['a', 'b', 'c'].map(row))).rejects.toThrow('postgres down');
    expect(i.log.slice(-2)).toEqual(['reserve 1', 'release 1']);
    expect(i.room()).toBe(0);
  });

  it('nothing to write: no reservation', async () => {
    const i = intake();
    await i.run([]);
    expect(i.log).toEqual([]);
  });
});
