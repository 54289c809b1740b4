import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { runMigrations } from './migrate.ts';
import { ensureDatabase } from './ensure-database.ts';

/** The services of deploy/services.txt (the one list of them), in start order. */
export function serviceNames(repoRoot: string): string[] {
  return readFileSync(join(repoRoot, 'deploy', 'services.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Creates the database if needed and applies every service's migrations (`pnpm migrate`, test setup). */
export async function migrateAll(databaseUrl: string, repoRoot: string, logger?: Logger): Promise<Record<string, string[]>> {
  await ensureDatabase(databaseUrl);
  const applied: Record<string, string[]> = {};
  // Services that own tables are those with a migrations directory, applied in the list's order.
  for (const service of serviceNames(repoRoot)) {
    const dir = join(repoRoot, 'services', service, 'migrations');
    if (!existsSync(dir)) continue;
    applied[service] = await runMigrations({ databaseUrl, dir, service, ...(logger === undefined ? {} : { logger }) });
  }
  return applied;
}
