import { inTransaction, type Pool } from '@pulseboard/db';
import { seal, unsealWith, type SecretKeys } from '@pulseboard/contracts';

export interface IntegrationRotationReport {
  scanned: number;
  resealed: number;
  /** `project_key/integration` of rows neither key opens: left as they are, and the command fails. */
  unreadable: string[];
}

/**
 * Re-seals every project's integration secret (GitHub's webhook secret) under
 * `keys.current`, as rotateSecrets does for notification services: a row
 * sealed under `keys.previous` is opened and sealed again, in one transaction
 * with the rows locked (the table holds one row per project and integration).
 * Gateways keep verifying meanwhile: they open either key.
 */
export async function rotateIntegrationSecrets(pool: Pool, keys: SecretKeys): Promise<IntegrationRotationReport> {
  const report: IntegrationRotationReport = { scanned: 0, resealed: 0, unreadable: [] };
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ project_key: string; integration: string; secret_sealed: string }>(
      'SELECT project_key, integration, secret_sealed FROM project_integration_secrets ORDER BY project_key, integration FOR UPDATE',
    );
    for (const row of rows) {
      report.scanned++;
      let opened: { plain: string; current: boolean };
      try {
        opened = unsealWith(row.secret_sealed, keys);
      } catch {
        report.unreadable.push(`${row.project_key}/${row.integration}`);
        continue;
      }
      if (opened.current) continue;
      await client.query('UPDATE project_integration_secrets SET secret_sealed = $3 WHERE project_key = $1 AND integration = $2', [
        row.project_key,
        row.integration,
        seal(opened.plain, keys.current),
      ]);
      report.resealed++;
    }
    return report;
  });
}
