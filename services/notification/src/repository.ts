import type { Pool } from 'pg';
import type { NotificationType } from '@pulseboard/contracts';
import { loadNotificationServices } from '@pulseboard/control-plane';
import { prepared } from '@pulseboard/db';

/**
 * Every SQL statement of the notification service: it writes notification_deliveries, its own table.
 * The notification services (owned by the gateway) are read through @pulseboard/control-plane: the
 * tiles' attached services in targets.ts, and here the kind, name, config and secrets of the services a
 * batch of deliveries is about to be sent through (one more statement per batch, not per delivery).
 */

export interface NewDelivery {
  id: string;
  serviceId: number;
  accountId: number;
  kind: 'transition' | 'message' | 'test';
  tileId: number | null;
  eventId: number | null;
  position: number | null;
  payload: unknown;
}

/**
 * Inserts deliveries already claimed by this instance (leased for `leaseMs`,
 * as `claimDue` would), and returns the new ones ready to send: the caller
 * sends them at once, with no claim round trip. One that exists already (a
 * redelivered message) is left alone and not returned; the schedule has it.
 */
export async function insertClaimedDeliveries(pool: Pool, rows: readonly NewDelivery[], leaseMs: number): Promise<DueDelivery[]> {
  if (rows.length === 0) return [];
  const { rows: inserted } = await pool.query<ClaimedDelivery>(
    prepared(
      `WITH inserted AS (
         INSERT INTO notification_deliveries (id, service_id, account_id, kind, tile_id, event_id, position, payload, next_attempt_at)
         SELECT u.*, now() + $9 * interval '1 millisecond'
           FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::jsonb[]) AS u
         ON CONFLICT DO NOTHING
         RETURNING id, service_id, kind, payload, attempts, created_at)
       SELECT * FROM inserted`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.serviceId),
        rows.map((r) => r.accountId),
        rows.map((r) => r.kind),
        rows.map((r) => r.tileId),
        rows.map((r) => r.eventId),
        rows.map((r) => r.position),
        rows.map((r) => JSON.stringify(r.payload)),
        leaseMs,
      ],
    ),
  );
  return withServices(pool, inserted);
}

/** A claimed delivery as its own table has it. */
type ClaimedDelivery = Omit<DueDelivery, 'service_kind' | 'service_name' | 'config' | 'secrets'>;

/** Adds to each delivery its service as the sender needs it (all null when the service was deleted since). */
async function withServices(pool: Pool, deliveries: ClaimedDelivery[]): Promise<DueDelivery[]> {
  if (deliveries.length === 0) return [];
  const services = await loadNotificationServices(
    pool,
    deliveries.map((d) => Number(d.service_id)),
  );
  return deliveries.map((d) => {
    const s = services.get(Number(d.service_id));
    return { ...d, service_kind: s?.kind ?? null, service_name: s?.name ?? null, config: s?.config ?? null, secrets: s?.secrets ?? null };
  });
}

export interface DueDelivery {
  id: string;
  service_id: number;
  kind: 'transition' | 'message' | 'test';
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  service_kind: NotificationType | null;
  service_name: string | null;
  config: Record<string, unknown> | null;
  secrets: string | null;
}

/**
 * Claims due deliveries: their next attempt moves a lease ahead, so another
 * instance skips them and, should this one die mid-send, they are tried
 * again when the lease ends (the crash window: at most one more send, with
 * the same webhook-id).
 */
export async function claimDue(pool: Pool, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  const { rows } = await pool.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT id FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE notification_deliveries d SET next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.service_id, d.kind, d.payload, d.attempts, d.created_at)
     SELECT * FROM claimed`,
    [limit, leaseMs],
  );
  return withServices(pool, rows);
}

/** How long until the next pending delivery falls due (0 if one is due now), or undefined when none is pending. */
export async function nextDueInMs(pool: Pool): Promise<number | undefined> {
  // NULL when nothing is pending (greatest() would turn that NULL into 0: due now, a poll every NOTIFY_POLL_MS).
  const { rows } = await pool.query<{ ms: number | null }>(
    `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms FROM notification_deliveries WHERE status = 'pending'`,
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, Math.ceil(ms));
}

/** Records successful tries, many in one statement. */
export async function markDelivered(pool: Pool, delivered: readonly { id: string; responseStatus: number | null }[]): Promise<void> {
  if (delivered.length === 0) return;
  await pool.query(
    prepared(
      `UPDATE notification_deliveries d SET status = 'delivered', attempts = d.attempts + 1, response_status = r.status, last_error = NULL, delivered_at = now()
         FROM unnest($1::text[], $2::int[]) AS r(id, status) WHERE d.id = r.id`,
      [delivered.map((d) => d.id), delivered.map((d) => d.responseStatus)],
    ),
  );
}

export async function markRetry(pool: Pool, id: string, error: string, responseStatus: number | null, delayMs: number): Promise<void> {
  await pool.query(
    `UPDATE notification_deliveries SET attempts = attempts + 1, last_error = $2, response_status = $3, next_attempt_at = now() + $4 * interval '1 millisecond' WHERE id = $1`,
    [id, error, responseStatus, delayMs],
  );
}

export async function markFailed(pool: Pool, id: string, error: string, responseStatus: number | null): Promise<void> {
  await pool.query(`UPDATE notification_deliveries SET status = 'failed', attempts = attempts + 1, last_error = $2, response_status = $3 WHERE id = $1`, [
    id,
    error,
    responseStatus,
  ]);
}

/** Pending deliveries: due now (waiting for a sender) and scheduled later (retries, leases). Read through the pending-only index. */
export async function queueDepth(pool: Pool): Promise<{ due: number; scheduled: number }> {
  const { rows } = await pool.query<{ due: number; scheduled: number }>(
    `SELECT count(*) FILTER (WHERE next_attempt_at <= now())::int AS due, count(*) FILTER (WHERE next_attempt_at > now())::int AS scheduled
       FROM notification_deliveries WHERE status = 'pending'`,
  );
  return rows[0]!;
}
