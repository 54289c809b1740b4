import { inTransaction, type Pool } from '@pulseboard/db';
import { SECRET_CONFIG_FIELDS, seal, unsealWith, type NotificationType, type SecretKeys } from '@pulseboard/contracts';

export interface RotationReport {
  /** Rows read. */
  scanned: number;
  /** Rows sealed again under the current key (they were under the previous one, or held a secret field in clear). */
  resealed: number;
  /** Ids of rows neither key opens: left as they are, and the command fails. */
  unreadable: number[];
}

const BATCH = 200;

/**
 * Re-seals every notification service's secrets under `keys.current`: a row
 * sealed under `keys.previous` is opened and sealed again; a secret field a
 * row written before it was sealed keeps in `config` (a webhook's `url`) is
 * moved into the sealed part. Batches in their own transactions (rows locked
 * while rewritten, so an API update in between is not overwritten); safe to
 * run again, and while the services run with both keys.
 */
export async function rotateSecrets(pool: Pool, keys: SecretKeys): Promise<RotationReport> {
  const report: RotationReport = { scanned: 0, resealed: 0, unreadable: [] };
  let after = 0;
  for (;;) {
    const rows = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string; kind: NotificationType; config: Record<string, unknown>; secrets: string | null }>(
        'SELECT id, kind, config, secrets FROM notification_services WHERE id > $1 ORDER BY id LIMIT $2 FOR UPDATE',
        [after, BATCH],
      );
      for (const row of rows) {
        report.scanned++;
        const fields: readonly string[] = SECRET_CONFIG_FIELDS[row.kind];
        const inClear = Object.keys(row.config).filter((name) => fields.includes(name));
        let opened: { plain: string; current: boolean } | undefined;
        if (row.secrets !== null) {
          try {
            opened = unsealWith(row.secrets, keys);
          } catch {
            report.unreadable.push(Number(row.id));
            continue;
          }
        }
        if ((opened === undefined || opened.current) && inClear.length === 0) continue;
        const secrets: Record<string, unknown> = opened === undefined ? {} : (JSON.parse(opened.plain) as Record<string, unknown>);
        const config = { ...row.config };
        for (const name of inClear) {
          secrets[name] ??= config[name];
          delete config[name];
        }
        await client.query('UPDATE notification_services SET config = $2, secrets = $3 WHERE id = $1', [
          row.id,
          JSON.stringify(config),
          seal(JSON.stringify(secrets), keys.current),
        ]);
        report.resealed++;
      }
      return rows;
    });
    if (rows.length < BATCH) return report;
    after = Number(rows.at(-1)!.id);
  }
}
