/**
 * `pnpm secrets:rotate` (compiled: `node services/gateway/dist/secrets/rotate-cli.js`):
 * seals every stored notification and integration secret again under SECRETS_KEY, opening the
 * old ones with SECRETS_KEY_PREVIOUS. Steps in SECURITY.md (Rotating SECRETS_KEY).
 * Exits 1 when a row opens under neither key.
 */
import { commonEnvProperties, loadEnv, secretsEnvProperties } from '@pulseboard/config';
import { createPool } from '@pulseboard/db';
import { rotateSecrets } from './rotate.ts';
import { rotateIntegrationSecrets } from './rotate-integrations.ts';

// The previous key only opens, never seals: the command also retires a weak old key (the
// published development default of earlier releases), so any non-empty value is taken for it.
const env = loadEnv<{ DATABASE_URL: string; SECRETS_KEY: string; SECRETS_KEY_PREVIOUS: string }>({
  DATABASE_URL: commonEnvProperties.DATABASE_URL,
  SECRETS_KEY: secretsEnvProperties.SECRETS_KEY,
  SECRETS_KEY_PREVIOUS: { type: 'string', default: '' },
});
const pool = createPool({ connectionString: env.DATABASE_URL, max: 2, applicationName: 'pulseboard-secrets-rotate' });
try {
  const report = await rotateSecrets(pool, { current: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS });
  console.log(
    `secrets rotate: ${report.scanned} notification services read, ${report.resealed} sealed again under SECRETS_KEY, ${report.unreadable.length} opened by neither key`,
  );
  if (report.unreadable.length > 0) {
    console.error(
      `secrets rotate: notification services ${report.unreadable.join(', ')} open under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS; left unchanged`,
    );
    process.exitCode = 1;
  }
  const integrations = await rotateIntegrationSecrets(pool, { current: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS });
  console.log(
    `secrets rotate: ${integrations.scanned} integration secrets read, ${integrations.resealed} sealed again under SECRETS_KEY, ${integrations.unreadable.length} opened by neither key`,
  );
  if (integrations.unreadable.length > 0) {
    console.error(
      `secrets rotate: integration secrets ${integrations.unreadable.join(', ')} open under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS; left unchanged`,
    );
    process.exitCode = 1;
  }
} finally {
  await pool.end();
}
