import type { TileTargets } from '@pulseboard/control-plane';
import { PROJECT_REVISION_HEADER, type NotificationRequest, type TileChange } from '@pulseboard/contracts';
import type { DueDelivery, NewDelivery } from './repository.ts';

/**
 * What the notification service's two inputs become: a tile's status
 * transitions one delivery per service the tile names (at the rules' revision
 * the change carries), an API's send request one delivery. And how new
 * deliveries are written and sent: in slices the dispatcher has room for.
 */

/** A tile change as consumed: its value and the headers it came with. */
export interface ConsumedChange {
  value: TileChange;
  raw: { headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined> };
}

/** The services each tile notifies (NotificationTargets, answered at least at the given revision). */
export interface TargetLookup {
  targetsFor(changes: readonly { projectKey: string; tileId: number; revision: number }[]): Promise<Map<number, TileTargets>>;
}

/** The project revision a tile change carries (its rules', header pb-project-revision); 0 when absent or malformed. */
export function revisionOf(header: Buffer | string | (Buffer | string)[] | undefined): number {
  const text = Array.isArray(header) ? header[0] : header;
  const revision = text === undefined ? 0 : Number(text.toString());
  return Number.isSafeInteger(revision) && revision > 0 ? revision : 0;
}

/**
 * Status transitions (not value-only changes) become one delivery per service
 * the tile names; its id (`dlv_<position>_<service>`) makes a redelivered
 * change a no-op. Changes of tiles that notify nobody become nothing. A
 * grouped tile notifies on its own transitions (its worst group's status),
 * not on each group's (a change with `group`): a storm of groups flipping
 * together is one message per change of the worst status.
 */
export async function transitionDeliveries(changes: readonly ConsumedChange[], targets: TargetLookup): Promise<NewDelivery[]> {
  const transitions = changes.filter((m) => m.value.group === undefined && m.value.status !== m.value.previous_status);
  if (transitions.length === 0) return [];
  const found = await targets.targetsFor(
    transitions.map((m) => ({ projectKey: m.value.project_key, tileId: m.value.tile_id, revision: revisionOf(m.raw.headers?.[PROJECT_REVISION_HEADER]) })),
  );
  const rows: NewDelivery[] = [];
  for (const { value: c } of transitions) {
    const target = found.get(c.tile_id);
    if (target === undefined) continue;
    for (const serviceId of target.serviceIds) {
      rows.push({
        id: `dlv_${c.position}_${serviceId}`,
        serviceId,
        accountId: target.accountId,
        kind: 'transition',
        tileId: c.tile_id,
        eventId: c.event_id,
        position: c.position,
        payload: {
          tile_id: c.tile_id,
          tile_name: c.tile_name,
          project_key: c.project_key,
          status: c.status,
          previous_status: c.previous_status,
          value: c.value,
          event_id: c.event_id,
          changed_at: c.changed_at,
        },
      });
    }
  }
  return rows;
}

/** A message the API asked for (send_message, or send: a test): one delivery, its id the request's. */
export function requestDelivery(r: NotificationRequest): NewDelivery {
  return {
    id: r.request_id,
    serviceId: r.service_id,
    accountId: r.account_id,
    kind: r.test ? 'test' : 'message',
    tileId: null,
    eventId: null,
    position: null,
    payload: { subject: r.subject, body: r.body },
  };
}

export interface IntakeDeps {
  /** At most this many are written and sent at once (NOTIFY_CONCURRENCY). */
  sliceSize: number;
  /** The dispatcher's room: wait for it, give back what was not used. */
  reserve(count: number): Promise<void>;
  release(count: number): void;
  /** Writes deliveries already claimed; answers the new ones (a redelivered one is not new). */
  insertClaimed(rows: NewDelivery[]): Promise<DueDelivery[]>;
  /** Sends the new ones at once, within the `reserved` room. */
  sendClaimed(fresh: DueDelivery[], reserved: number): void;
  onCreated(count: number): void;
}

/**
 * New deliveries are written already claimed and sent at once (no claim round
 * trip), in slices the dispatcher has room for, so a lease is never spent
 * waiting. Once written, the batch's offsets may move on: a crash before the
 * send leaves them to the schedule when the lease ends. A failed write gives
 * its room back.
 */
export function deliveryIntake(deps: IntakeDeps): (rows: readonly NewDelivery[]) => Promise<void> {
  return async (rows) => {
    for (let start = 0; start < rows.length; start += deps.sliceSize) {
      const slice = rows.slice(start, start + deps.sliceSize);
      await deps.reserve(slice.length);
      let fresh: DueDelivery[];
      try {
        fresh = await deps.insertClaimed(slice);
      } catch (error) {
        deps.release(slice.length);
        throw error;
      }
      deps.onCreated(fresh.length);
      deps.sendClaimed(fresh, slice.length);
    }
  };
}
