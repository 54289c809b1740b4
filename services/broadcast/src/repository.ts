import type { Pool } from 'pg';
import { inReadSnapshot } from '@pulseboard/db';
import type { TileChange } from '@pulseboard/contracts';
import { snapshotTiles, type Reader } from '@pulseboard/control-plane';
import { changesAfter, latestChangePosition, tileStatesOf } from '@pulseboard/tile-state-store';

/** What the broadcast service reads: the rule engine's tables through @pulseboard/tile-state-store, the control plane's through @pulseboard/control-plane; no SQL of its own. */

/** Credentials and projects are read through the control plane's read models (the gateway owns those tables). */
export { accountProjects, authenticateReader, liveCredentials, liveProjects, type VisibleProject } from '@pulseboard/control-plane';

/** Who a connection authenticated as (authenticateReader, in @pulseboard/control-plane). */
export type Principal = Reader;

export interface TileSnapshot {
  tile_id: number;
  tile_name: string;
  status: string;
  value: unknown;
  version: number;
  last_event_id: number | null;
  changed_at: string | null;
  kind: string;
  /** The tile's place in dashboard order. */
  tile_position: number;
  rule: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export type CatchUp = { kind: 'changes'; changes: TileChange[] } | { kind: 'snapshot'; position: number; tiles: TileSnapshot[] };

/**
 * What a subscriber needs to be current: the changes after `since` when there
 * are at most `max` of them, otherwise every tile's state with the position it
 * is current to. One REPEATABLE READ transaction, so the snapshot's tiles, their
 * states and the position agree.
 */
export async function catchUp(pool: Pool, projectKey: string, since: number | undefined, max: number): Promise<CatchUp> {
  return inReadSnapshot(pool, async (client): Promise<CatchUp> => {
    if (since !== undefined) {
      const changes = await changesAfter(client, projectKey, since, max + 1);
      const top = await latestChangePosition(client);
      // A position from the future (another installation, a reset) cannot be resumed from.
      if (changes.length <= max && since <= top) return { kind: 'changes', changes };
    }
    const position = await latestChangePosition(client, projectKey);
    // The tiles through the control plane's read model, on this transaction's client: same snapshot.
    const tiles = await snapshotTiles(client, projectKey);
    const states = await tileStatesOf(
      client,
      tiles.map((t) => t.tile_id),
    );
    const stateOf = new Map(states.map((s) => [Number(s.tile_id), s]));
    return {
      kind: 'snapshot',
      position,
      tiles: tiles.map((t): TileSnapshot => {
        const s = stateOf.get(t.tile_id);
        return {
          tile_id: t.tile_id,
          tile_name: t.tile_name,
          status: s?.status ?? 'unknown',
          value: s === undefined ? null : s.value,
          version: s?.version ?? 0,
          last_event_id: s?.last_event_id ?? null,
          changed_at: (s?.changed_at ?? t.created_at).toISOString(),
          kind: t.kind,
          tile_position: t.position,
          rule: t.rule,
          settings: t.settings,
        };
      }),
    };
  });
}
