import type { Pool } from '@pulseboard/db';
import { controlWrite, type ControlFeed } from './control-writes.ts';

/** The integrations whose deliveries are signed with a per-project secret. */
export const SIGNED_INTEGRATIONS = ['github'] as const;
export type SignedIntegration = (typeof SIGNED_INTEGRATIONS)[number];

export interface IntegrationSecretRecord {
  integration: SignedIntegration;
  secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'integration, secret_sealed, created_at, updated_at';

export async function findIntegrationSecret(pool: Pool, projectKey: string, integration: SignedIntegration): Promise<string | undefined> {
  const { rows } = await pool.query<{ secret_sealed: string }>(
    'SELECT secret_sealed FROM project_integration_secrets WHERE project_key = $1 AND integration = $2',
    [projectKey, integration],
  );
  return rows[0]?.secret_sealed;
}

export async function listIntegrationSecrets(pool: Pool, projectKey: string): Promise<IntegrationSecretRecord[]> {
  const { rows } = await pool.query<IntegrationSecretRecord>(`SELECT ${COLUMNS} FROM project_integration_secrets WHERE project_key = $1 ORDER BY integration`, [
    projectKey,
  ]);
  return rows;
}

/** Sets (or replaces) a project's secret for an integration; bumps the project's revision (a control-plane write, control-writes.ts) so every gateway reads it again. */
export async function putIntegrationSecret(
  pool: Pool,
  feed: ControlFeed,
  projectKey: string,
  integration: SignedIntegration,
  sealed: string,
): Promise<IntegrationSecretRecord | undefined> {
  return controlWrite(
    pool,
    feed,
    projectKey,
    () => ({ change: 'project_updated' }),
    async (client) => {
      const { rows } = await client.query<IntegrationSecretRecord>(
        `INSERT INTO project_integration_secrets (project_key, integration, secret_sealed) VALUES ($1, $2, $3)
       ON CONFLICT (project_key, integration) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, updated_at = now()
       RETURNING ${COLUMNS}`,
        [projectKey, integration, sealed],
      );
      return rows[0];
    },
  );
}

export async function deleteIntegrationSecret(pool: Pool, feed: ControlFeed, projectKey: string, integration: SignedIntegration): Promise<boolean> {
  const deleted = await controlWrite(
    pool,
    feed,
    projectKey,
    () => ({ change: 'project_updated' }),
    async (client) => {
      const { rowCount } = await client.query('DELETE FROM project_integration_secrets WHERE project_key = $1 AND integration = $2', [projectKey, integration]);
      return (rowCount ?? 0) > 0 ? true : undefined;
    },
  );
  return deleted === true;
}
