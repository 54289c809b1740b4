import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { runMigrations } from './migrate.ts';
import { ensureDatabase } from './ensure-database.ts';

/** Services that own tables, in the order their migrations are applied. */
export const MIGRATING_SERVICES = ['gateway', 'store', 'rule-engine', 'notification'] as const;

/** Creates the database if needed and applies every service's migrations (`pnpm migrate`, test setup). */
export async function migrateAll(databaseUrl: string, repoRoot: string, logger?: Logger): Promise<Record<string, string[]>> {
  await ensureDatabase(databaseUrl);
  const applied: Record<string, string[]> = {};
  for (const service of MIGRATING_SERVICES) {
    const dir = join(repoRoot, 'services', service, 'migrations');
    if (!existsSync(dir)) continue;
    applied[service] = await runMigrations({ databaseUrl, dir, service, ...(logger === undefined ? {} : { logger }) });
  }
  return applied;
}
