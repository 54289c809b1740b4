export * from './pool.ts';
export * from './migrate.ts';
export * from './ensure-database.ts';
export * from './migrate-all.ts';
export * from './snapshot.ts';
