export * from './pool.ts';
export * from './migrate.ts';
export * from './ensure-database.ts';
export * from './migrate-all.ts';
export * from './snapshot.ts';
export * from './prepared.ts';
export * from './outbox.ts';
export * from './relay-cursors.ts';
