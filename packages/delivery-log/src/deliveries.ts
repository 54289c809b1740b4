import type { Pool } from '@pulseboard/db';

export interface DeliveryRecord {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  response_status: number | null;
  tile_id: number | null;
  event_id: number | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** Which rows of a list: `perPage` of them after the first `offset`. */
export interface PageWindow {
  perPage: number;
  offset: number;
}

/** A notification service's delivery log (written by the notification service), newest first. */
export async function listDeliveries(pool: Pool, serviceId: number, page: PageWindow): Promise<{ rows: DeliveryRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    pool.query<DeliveryRecord>(
      'SELECT id, status, attempts, last_error, response_status, tile_id, event_id, created_at, delivered_at FROM notification_deliveries WHERE service_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3',
      [serviceId, page.perPage, page.offset],
    ),
    pool.query<{ total: number }>('SELECT count(*)::bigint AS total FROM notification_deliveries WHERE service_id = $1', [serviceId]),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}
