/**
 * `pnpm migrate`: applies every service's migrations, in dependency order.
 * Services also apply their own at start, so this is for operators and CI.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { runMigrations } from './migrate.ts';
import { ensureDatabase } from './ensure-database.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pulseboard';
// Control-plane tables first: nothing references them across services, but the order is stable.
const services = ['gateway', 'store', 'rule-engine', 'notification'];

await ensureDatabase(databaseUrl);
for (const service of services) {
  const dir = `${root}services/${service}/migrations`;
  if (!existsSync(dir)) continue;
  const applied = await runMigrations({ databaseUrl, dir, service });
  console.log(`${service}: ${applied.length === 0 ? 'up to date' : `applied ${applied.join(', ')}`}`);
}
