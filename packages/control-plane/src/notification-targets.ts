import type { Pool } from 'pg';
import type { NotificationType } from '@pulseboard/contracts';

/** The services a tile notifies on a status transition, and their (and the tile's) account. */
export interface TileTargets {
  accountId: number;
  serviceIds: number[];
}

/** A project's tiles that notify someone, at one revision of the project (read in one snapshot). */
export interface ProjectTargets {
  /** The project's revision these were read at; 0 when there is no such project. */
  revision: number;
  /** Only tiles with at least one service of the project's own account. */
  tiles: Map<number, TileTargets>;
}

/**
 * The notification targets of the given projects (every project when
 * `projectKeys` is omitted: the start-up snapshot and the safety-net poll),
 * each with the revision it was read at, in one statement. Every write that
 * changes a tile's services (tile API, a service's deletion) bumps the
 * revision in its own transaction, so the pair is consistent. A project
 * asked for that does not exist is absent from the answer.
 */
export async function loadNotificationTargets(pool: Pool, projectKeys?: readonly string[]): Promise<Map<string, ProjectTargets>> {
  const { rows } = await pool.query<{ project_key: string; revision: string; account_id: string; tiles: { id: number; services: number[] }[] | null }>(
    `SELECT p.project_key, p.revision::text AS revision, p.account_id::text AS account_id,
            (SELECT json_agg(json_build_object('id', t.id, 'services', s.ids))
               FROM tiles t
               CROSS JOIN LATERAL (SELECT array_agg(n.id ORDER BY n.id) AS ids FROM notification_services n
                                    WHERE n.id = ANY(t.notification_service_ids) AND n.account_id = p.account_id) s
              WHERE t.project_key = p.project_key AND p.deleted_at IS NULL
                AND cardinality(t.notification_service_ids) > 0 AND s.ids IS NOT NULL) AS tiles
       FROM projects p
      WHERE $1::text[] IS NULL OR p.project_key = ANY($1::text[])`,
    [projectKeys === undefined ? null : [...projectKeys]],
  );
  return new Map(
    rows.map((r) => {
      const accountId = Number(r.account_id);
      const tiles = new Map((r.tiles ?? []).map((t) => [Number(t.id), { accountId, serviceIds: t.services.map(Number) }]));
      return [r.project_key, { revision: Number(r.revision), tiles }];
    }),
  );
}

/** A notification service as its sender needs it: kind, name, config, and its secrets (sealed). */
export interface NotificationServiceForSend {
  kind: NotificationType;
  name: string;
  config: Record<string, unknown>;
  /** Sealed with SECRETS_KEY; null when the service has none. */
  secrets: string | null;
}

/** The given notification services (a deleted one is absent from the answer), in one statement. */
export async function loadNotificationServices(pool: Pool, ids: readonly number[]): Promise<Map<number, NotificationServiceForSend>> {
  if (ids.length === 0) return new Map();
  // Named: run for every batch a notification service sends, so each connection parses and plans it once.
  const { rows } = await pool.query<NotificationServiceForSend & { id: string }>({
    name: 'pb_notification_services_for_send',
    text: 'SELECT id::text AS id, kind, name, config, secrets FROM notification_services WHERE id = ANY($1::bigint[])',
    values: [[...new Set(ids)]],
  });
  return new Map(rows.map(({ id, ...service }) => [Number(id), service]));
}
