/**
 * `pnpm migrate`: applies every service's migrations. Services also apply their
 * own at start (MIGRATE_ON_START), so this is for operators, CI and deploy jobs.
 */
import { fileURLToPath } from 'node:url';
import { migrateAll } from './migrate-all.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pulseboard';
const applied = await migrateAll(databaseUrl, root);
for (const [service, names] of Object.entries(applied)) {
  console.log(`${service}: ${names.length === 0 ? 'up to date' : `applied ${names.join(', ')}`}`);
}
