/**
 * `pnpm migrate`: applies every service's migrations. Services also apply their
 * own at start (MIGRATE_ON_START), so this is for operators, CI and deploy jobs.
 */
import { fileURLToPath } from 'node:url';
import { commonEnvProperties, loadEnv } from '@pulseboard/config';
import { migrateAll } from './migrate-all.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// DATABASE_URL as every service reads it (validated, with the one default).
const { DATABASE_URL } = loadEnv<{ DATABASE_URL: string }>({ DATABASE_URL: commonEnvProperties.DATABASE_URL });
const applied = await migrateAll(DATABASE_URL, root);
for (const [service, names] of Object.entries(applied)) {
  console.log(`${service}: ${names.length === 0 ? 'up to date' : `applied ${names.join(', ')}`}`);
}
