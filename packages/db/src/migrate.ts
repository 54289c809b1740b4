import { runner } from 'node-pg-migrate';
import type { Logger } from 'pino';

/**
 * Applies one service's migrations. Each service owns the tables it writes and
 * keeps its migrations (and its own bookkeeping table) beside its code, so two
 * services never race over one migration history. node-pg-migrate takes an
 * advisory lock, so replicas starting together apply each migration once.
 */
export async function runMigrations(options: {
  databaseUrl: string;
  dir: string;
  service: string;
  logger?: Logger;
  /** Only the first `count` not yet applied (tests of a migration). */ count?: number;
}): Promise<string[]> {
  const applied = await runner({
    databaseUrl: options.databaseUrl,
    dir: options.dir,
    migrationsTable: `pgmigrations_${options.service}`,
    direction: 'up',
    count: options.count ?? Infinity,
    singleTransaction: true,
    checkOrder: true,
    log: (message: string) => options.logger?.debug({ event: 'migration_log', service: options.service, message }),
  });
  const names = applied.map((m) => m.name);
  if (names.length > 0) options.logger?.info({ event: 'migrations_applied', service: options.service, migrations: names });
  return names;
}
