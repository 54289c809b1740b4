import type { Pool } from '@pulseboard/db';
import { withCapLock } from './cap-lock.ts';
import { controlWrites, type ControlChangeOf, type ControlFeed } from './control-writes.ts';
import type { NotificationType } from '@pulseboard/contracts';
import type { Page } from '../params/pagination.ts';

export interface NotificationServiceRecord {
  id: number;
  account_id: number;
  name: string;
  kind: NotificationType;
  /** The config without its secret fields. */
  config: Record<string, unknown>;
  /** The secret fields, sealed; null when the type has none. */
  secrets: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, account_id, name, kind, config, secrets, created_at, updated_at';

export async function listNotificationServices(pool: Pool, accountId: number, page: Page): Promise<{ rows: NotificationServiceRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    pool.query<NotificationServiceRecord>(`SELECT ${COLUMNS} FROM notification_services WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [
      accountId,
      page.perPage,
      page.offset,
    ]),
    pool.query<{ total: number }>('SELECT count(*)::bigint AS total FROM notification_services WHERE account_id = $1', [accountId]),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}

export async function findNotificationService(pool: Pool, accountId: number, id: number): Promise<NotificationServiceRecord | undefined> {
  const { rows } = await pool.query<NotificationServiceRecord>(`SELECT ${COLUMNS} FROM notification_services WHERE id = $1 AND account_id = $2`, [
    id,
    accountId,
  ]);
  return rows[0];
}

export interface NotificationServiceWrite {
  name: string;
  kind: NotificationType;
  config: Record<string, unknown>;
  secrets: string | null;
}

/** A new service, or `full` when the account already has `maxServices` (counted under a per-account lock). */
export async function insertNotificationService(
  pool: Pool,
  accountId: number,
  write: NotificationServiceWrite,
  maxServices: number,
): Promise<NotificationServiceRecord | 'full'> {
  return withCapLock(pool, `notification_services:${accountId}`, async (client) => {
    const { rows } = await client.query<NotificationServiceRecord>(
      `INSERT INTO notification_services (account_id, name, kind, config, secrets) SELECT $1, $2, $3, $4, $5
       WHERE (SELECT count(*) FROM notification_services WHERE account_id = $1) < $6 RETURNING ${COLUMNS}`,
      [accountId, write.name, write.kind, JSON.stringify(write.config), write.secrets, maxServices],
    );
    return rows[0] ?? 'full';
  });
}

export async function updateNotificationService(
  pool: Pool,
  accountId: number,
  id: number,
  write: NotificationServiceWrite,
): Promise<NotificationServiceRecord | undefined> {
  const { rows } = await pool.query<NotificationServiceRecord>(
    `UPDATE notification_services SET name = $3, kind = $4, config = $5, secrets = $6, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
    [id, accountId, write.name, write.kind, JSON.stringify(write.config), write.secrets],
  );
  return rows[0];
}

/**
 * Deletes the service and takes it off every tile that named it, in one
 * control-plane write (control-writes.ts). Those tiles changed: each of their
 * projects' revision goes up by one and a `tile_updated` message per tile
 * leaves through the control outbox (as any tile write), so caches of
 * attached services (the notification service's) drop it.
 */
export async function deleteNotificationService(pool: Pool, feed: ControlFeed, accountId: number, id: number): Promise<boolean> {
  const deleted = await controlWrites(pool, feed, async (client) => {
    const { rowCount } = await client.query('DELETE FROM notification_services WHERE id = $1 AND account_id = $2', [id, accountId]);
    if ((rowCount ?? 0) === 0) return undefined;
    const { rows } = await client.query<{ id: string; project_key: string }>(
      'UPDATE tiles SET notification_service_ids = array_remove(notification_service_ids, $1::bigint), updated_at = now() WHERE $1::bigint = ANY(notification_service_ids) RETURNING id::text AS id, project_key',
      [id],
    );
    const changes = new Map<string, ControlChangeOf[]>();
    for (const row of rows) changes.set(row.project_key, [...(changes.get(row.project_key) ?? []), { change: 'tile_updated', tileId: Number(row.id) }]);
    return { result: true, projects: [...changes].map(([projectKey, tileChanges]) => ({ projectKey, changes: tileChanges })) };
  });
  return deleted === true;
}

/** Which of these ids are services of the account (a tile may only name its own account's). */
export async function ownedServiceIds(pool: Pool, accountId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM notification_services WHERE account_id = $1 AND id = ANY($2::bigint[])', [accountId, ids]);
  return new Set(rows.map((r) => r.id));
}
